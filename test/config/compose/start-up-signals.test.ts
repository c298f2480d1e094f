import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
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

  it('takes a SIGHUP as it takes SIGINT and SIGTERM (before, it killed a starting session at once)', async () => {
    const before = process.listenerCount('SIGHUP');
    const startUp = watchStartUpSignals(true);
    expect(process.listenerCount('SIGHUP')).toBe(before + 1);
    (process.listeners('SIGHUP').at(-1) as () => void)();
    expect(await startUp.arrived).toBe('SIGHUP');
    expect(process.listenerCount('SIGHUP')).toBe(before);
  });

  it("with onSecond, ends the process on a second signal until end(), never by Node's default handler", () => {
    const before = counts();
    const exits: number[] = [];
    const seconds: string[] = [];
    const startUp = watchStartUpSignals(
      true,
      (signal) => seconds.push(signal),
      (code) => exits.push(code),
    );
    (process.listeners('SIGTERM').at(-1) as () => void)();
    expect(startUp.received).toBe('SIGTERM');
    // The start-up's own handlers are gone; the second signal's are there until end().
    expect(counts()).toEqual(before.map((n) => n + 1));
    (process.listeners('SIGINT').at(-1) as () => void)();
    expect(seconds).toEqual(['SIGINT']);
    expect(exits).toEqual([EXIT.INTERRUPTED]);
    expect(counts()).toEqual(before);
    const again = watchStartUpSignals(true, () => {});
    (process.listeners('SIGINT').at(-1) as () => void)();
    again.end();
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
