import { describe, expect, it } from 'vitest';
import { StartUpInterrupted, watchStartUpSignals } from '../../../config/compose/start-up-signals.ts';

const counts = () => [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];

describe('the signals of a starting session', () => {
  it('takes the first SIGINT or SIGTERM, then leaves the next to whoever handles it', async () => {
    const before = counts();
    const startUp = watchStartUpSignals(true);
    expect(counts()).toEqual(before.map((n) => n + 1));
    expect(startUp.received).toBeUndefined();
    // The handler called as the process would call it, not by raising a real signal.
    (process.listeners('SIGINT').at(-1) as () => void)();
    expect(startUp.received).toBe('SIGINT');
    expect(await startUp.arrived).toBe('SIGINT');
    expect(counts()).toEqual(before);
  });

  it('installs nothing when the session handles no signals, and end() removes what it installed', () => {
    const before = counts();
    watchStartUpSignals(false);
    expect(counts()).toEqual(before);
    watchStartUpSignals(true).end();
    expect(counts()).toEqual(before);
  });

  it('says which signal stopped which stage', () => {
    const error = new StartUpInterrupted('SIGTERM', 'logging in to the venue and reconciling');
    expect(error.message).toBe(
      'SIGTERM during start-up (logging in to the venue and reconciling): stopped before trading; nothing was placed',
    );
  });
});
