import type { Clock } from './clock.ts';
import type { Scheduler } from './scheduler.ts';

/*
 * LIVE ONLY. The kernel's one place that reads wall time (Date.now), monotonic time
 * (performance.now) and arms real timers (setTimeout); the venue's I/O code has its own, the
 * TimerPort of core/venue/timer-port.ts. Live runs inject it through the Scheduler port;
 * backtests never load it into a run (they use virtualScheduler), paper runs follow the replay's
 * time instead.
 */

/** The wall clock: epoch milliseconds from the host. Live runs only (and run bookkeeping). */
export const wallClock: Clock = {
  now: (): number => Date.now(),
};

/**
 * Monotonic milliseconds from an arbitrary origin: what live code measures how long it waited
 * with. Unlike the wall clock it never steps (an NTP correction, a manual change, a VM resume), so
 * a wait measured on it is neither stretched by a step back nor cut short by a step forward. Only
 * differences mean anything: never an event, signing or file timestamp.
 * @returns ms since the process's time origin (fractional)
 * @example
 * const began = monotonicNow();
 * // ... wait ...
 * const waitedMs = monotonicNow() - began;
 */
export function monotonicNow(): number {
  return performance.now();
}

/**
 * The live scheduler: time is wall time and a real timer wakes the kernel for strategy timers.
 * @returns a scheduler on wall time
 */
export function wallScheduler(): Scheduler {
  return timerScheduler(wallClock);
}

/** How long a pending wake-up waits at most before reading the speed again, real ms (Keel's choice). */
const SPEED_CHECK_MS = 1_000;

/**
 * A scheduler woken by real timers: time is `clock`'s, taken to run at `speed` times the wall
 * clock, so a wake-up due at `at` is armed (at - now) / speed real milliseconds ahead, measured on
 * {@link monotonicNow}: a step of the wall clock while it is pending neither delays nor hastens it.
 * One pending wake-up at a time (the kernel always asks for its earliest timer). A speed that can
 * change (a live session on a venue whose stated clock rate its replies may disprove and bear out
 * again) is read again at least once a real second while a wake-up is pending, and the wake-up
 * re-armed from the clock's time then when it changed. Where the scheduler's time can stand still
 * while the clock under it runs on (a live session's clock held after the venue-clock estimate
 * stepped back, a paper session's after the feed released an event late), waits are measured on
 * `running`: one measured from a clock standing still would come back every (due - now) / speed
 * ms until it moved, every millisecond for a wake-up due in one.
 * @param clock - the scheduler's time (the wall clock, a paper replay's or a live session's)
 * @param speed - how much faster than the wall clock that time runs, or how to read it (default 1)
 * @param running - the clock waits are measured on, running at `speed` (default `clock` itself): a
 *   wake-up already due on `clock` fires at once, one not yet due when `running` reaches it
 * @returns the scheduler
 */
export function timerScheduler(
  clock: Clock,
  speed: number | (() => number) = 1,
  running: () => number = () => clock.now(),
): Scheduler {
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
    wakeAt(due: number, wake: () => void): void {
      cancelWake();
      const at = clock.now() >= due ? running() : due;
      let armedSpeed = speedNow();
      let dueMs = monotonicNow() + Math.max(0, Math.ceil((at - running()) / armedSpeed));
      const wait = (): void => {
        pending = setTimeout(
          () => {
            if (monotonicNow() >= dueMs) {
              pending = undefined;
              wake();
              return;
            }
            const current = speedNow();
            if (current !== armedSpeed) {
              armedSpeed = current;
              dueMs = monotonicNow() + Math.max(0, Math.ceil((at - running()) / current));
            }
            wait();
          },
          Math.max(0, Math.min(dueMs - monotonicNow(), SPEED_CHECK_MS)),
        );
      };
      wait();
    },
    cancelWake,
  };
}
