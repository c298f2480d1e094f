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
 * One pending wake-up at a time (the kernel always asks for its earliest timer).
 * @returns a scheduler on wall time
 */
export function wallScheduler(): Scheduler {
  let pending: ReturnType<typeof setTimeout> | undefined;
  return {
    clock: wallClock,
    followsEventTime: false,
    advanceTo(): void {},
    wakeAt(at: number, wake: () => void): void {
      if (pending !== undefined) clearTimeout(pending);
      pending = setTimeout(
        () => {
          pending = undefined;
          wake();
        },
        Math.max(0, at - Date.now()),
      );
    },
    cancelWake(): void {
      if (pending !== undefined) clearTimeout(pending);
      pending = undefined;
    },
  };
}
