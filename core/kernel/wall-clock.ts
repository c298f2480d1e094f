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

/** How long a pending wake-up waits at most before reading the speed again, wall ms (Keel's choice). */
const SPEED_CHECK_MS = 1_000;

/**
 * A scheduler woken by real timers: time is `clock`'s, taken to run at `speed` times the wall
 * clock, so a wake-up due at `at` is armed (at - now) / speed wall milliseconds ahead. One pending
 * wake-up at a time (the kernel always asks for its earliest timer). A speed that can change (a
 * live session on a venue whose stated clock rate its replies may disprove and bear out again) is
 * read again at least once a wall second while a wake-up is pending, and the wake-up re-armed from
 * the clock's time then when it changed.
 * @param clock - the scheduler's time (the wall clock, or a paper replay's running time)
 * @param speed - how much faster than the wall clock that time runs, or how to read it (default 1)
 * @returns the scheduler
 */
export function timerScheduler(clock: Clock, speed: number | (() => number) = 1): Scheduler {
  const speedNow = typeof speed === 'number' ? () => speed : speed;
  let pending: ReturnType<typeof setTimeout> | undefined;
  const cancelWake = (): void => {
    if (pending !== undefined) clearTimeout(pending);
    pending = undefined;
  };
  return {
    clock,
    followsEventTime: false,
    advanceTo(): void {},
    wakeAt(at: number, wake: () => void): void {
      cancelWake();
      let armedSpeed = speedNow();
      let dueWallMs = Date.now() + Math.max(0, Math.ceil((at - clock.now()) / armedSpeed));
      const wait = (): void => {
        pending = setTimeout(
          () => {
            if (Date.now() >= dueWallMs) {
              pending = undefined;
              wake();
              return;
            }
            const current = speedNow();
            if (current !== armedSpeed) {
              armedSpeed = current;
              dueWallMs = Date.now() + Math.max(0, Math.ceil((at - clock.now()) / current));
            }
            wait();
          },
          Math.max(0, Math.min(dueWallMs - Date.now(), SPEED_CHECK_MS)),
        );
      };
      wait();
    },
    cancelWake,
  };
}
