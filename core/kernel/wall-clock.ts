import type { Clock } from './clock.ts';
import type { Scheduler } from './scheduler.ts';

/*
 * LIVE ONLY. This file is the one place in core/ that reads wall time (Date.now) and arms real
 * timers (setTimeout): live runs inject it through the Scheduler port; backtests never load it
 * into a run (they use virtualScheduler), paper runs follow the replay's time instead.
 */

/** The wall clock: epoch milliseconds from the host. Live runs only (and run bookkeeping). */
export const wallClock: Clock = {
  now: (): number => Date.now(),
};

/**
 * The live scheduler: time is wall time and a real timer wakes the kernel for strategy timers.
 * @returns a scheduler on wall time
 */
export function wallScheduler(): Scheduler {
  return timerScheduler(wallClock);
}

/**
 * A scheduler woken by real timers: time is `clock`'s, taken to run at `speed` times the wall
 * clock, so a wake-up due at `at` is armed (at - now) / speed wall milliseconds ahead. One pending
 * wake-up at a time (the kernel always asks for its earliest timer).
 * @param clock - the scheduler's time (the wall clock, or a paper replay's running time)
 * @param speed - how much faster than the wall clock that time runs (default 1)
 * @returns the scheduler
 */
export function timerScheduler(clock: Clock, speed = 1): Scheduler {
  let pending: ReturnType<typeof setTimeout> | undefined;
  return {
    clock,
    followsEventTime: false,
    advanceTo(): void {},
    wakeAt(at: number, wake: () => void): void {
      if (pending !== undefined) clearTimeout(pending);
      pending = setTimeout(
        () => {
          pending = undefined;
          wake();
        },
        Math.max(0, (at - clock.now()) / speed),
      );
    },
    cancelWake(): void {
      if (pending !== undefined) clearTimeout(pending);
      pending = undefined;
    },
  };
}
