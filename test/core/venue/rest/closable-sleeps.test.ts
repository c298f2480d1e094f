import { describe, expect, it } from 'vitest';
import { ClosableSleeps } from '../../../../core/venue/rest/closable-sleeps.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';

describe("a REST client's closable sleeps", () => {
  it('ends a sleep when its time is up, not before', async () => {
    const timer = fakeTimer(0);
    const sleeps = new ClosableSleeps(timer);
    let woke = false;
    const sleep = sleeps.sleep(1_000).then(() => (woke = true));
    await timer.advance(999);
    expect(woke).toBe(false);
    await timer.advance(1);
    await sleep;
    expect(woke).toBe(true);
    expect(timer.pending()).toBe(0);
  });

  it('refuses the sleeps under way when closed, their timers cancelled, and the later ones at once', async () => {
    const timer = fakeTimer(0);
    const sleeps = new ClosableSleeps(timer);
    const closed = new Error('client closed');
    const under = [sleeps.sleep(200), sleeps.sleep(60_000)].map((sleep) =>
      sleep.catch((error: unknown) => error),
    );
    expect(timer.pending()).toBe(2);
    sleeps.close(closed);
    expect(sleeps.closed).toBe(true);
    expect(await Promise.all(under)).toEqual([closed, closed]);
    expect(timer.pending()).toBe(0);
    sleeps.close(new Error('closed again'));
    expect(await sleeps.sleep(100).catch((error: unknown) => error)).toBe(closed);
    expect(timer.pending()).toBe(0);
  });
});
