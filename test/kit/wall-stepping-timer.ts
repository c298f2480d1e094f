import type { FakeTimer } from './venue-fake-timer.ts';
import { fakeTimer } from './venue-fake-timer.ts';

/**
 * A fake timer port whose wall clock can step (an NTP correction, a VM resume) while its monotonic
 * clock, and its timers, go on as before.
 */
export interface WallSteppingTimer extends FakeTimer {
  monotonic(): number;
  /** Steps the wall clock (`now()`) alone, firing nothing. @param ms - how far; negative steps back */
  stepWall(ms: number): void;
}

/**
 * Builds a fake timer whose `now()` is `start` plus the time advanced plus the wall steps, and
 * whose `monotonic()` is the time advanced only.
 * @param start - initial epoch ms
 * @returns the fake timer
 */
export function wallSteppingTimer(start = 1_700_000_000_000): WallSteppingTimer {
  const monotonic = fakeTimer(0);
  let wallOffset = start;
  return {
    now: () => monotonic.now() + wallOffset,
    monotonic: () => monotonic.now(),
    setTimer: (fn, ms) => monotonic.setTimer(fn, ms),
    advance: (ms) => monotonic.advance(ms),
    pending: () => monotonic.pending(),
    stepWall(ms) {
      wallOffset += ms;
    },
  };
}
