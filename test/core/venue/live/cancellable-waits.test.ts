import { describe, expect, it } from 'vitest';
import { CancellableWaits } from '../../../../core/venue/live/cancellable-waits.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';

/** Whether a promise has settled after pending callbacks ran. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((r) => setImmediate(r));
  return done;
}

describe('the waits between lookups', () => {
  it('end when their time is up, or at once when woken', async () => {
    const timer = fakeTimer(0);
    const waits = new CancellableWaits(timer);
    const timed = waits.wait(500);
    const woken = waits.wait(500);
    await timer.advance(499);
    expect([await settled(timed.done), await settled(woken.done)]).toEqual([false, false]);
    woken.wake();
    expect(await settled(woken.done)).toBe(true);
    await timer.advance(1);
    expect(await settled(timed.done)).toBe(true);
  });

  it('stay pending for good when cancelled, unless woken', async () => {
    const timer = fakeTimer(0);
    const waits = new CancellableWaits(timer);
    const left = waits.wait(100);
    const wokenAfter = waits.wait(100);
    waits.cancelAll();
    await timer.advance(1_000);
    expect(await settled(left.done)).toBe(false);
    wokenAfter.wake();
    expect(await settled(wokenAfter.done)).toBe(true);
  });

  it('start no timer once cancelled: a loop that waits again after the stop waits for good, unless woken', async () => {
    const timer = fakeTimer(0);
    const waits = new CancellableWaits(timer);
    waits.cancelAll();
    const late = waits.wait(100);
    expect(timer.pending()).toBe(0);
    await timer.advance(1_000);
    expect(await settled(late.done)).toBe(false);
    late.wake();
    expect(await settled(late.done)).toBe(true);
  });
});
