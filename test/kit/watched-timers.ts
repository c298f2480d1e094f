import type { Scheduler } from '../../core/kernel/index.ts';
import { KernelTimers } from '../../core/kernel/kernel-timers.ts';

/** A timer as it fired: its id and due time, the periods it folded in, and the clock the test watches then. */
export interface TimerFiring {
  readonly id: number;
  readonly at: number;
  readonly missed: number;
  readonly clockAt: number;
}

/** The kernel's timers on a scheduler, with what they fired and how often they asked to be woken. */
export interface WatchedTimers {
  readonly timers: KernelTimers;
  /** Each firing, in the order it came. */
  readonly fired: TimerFiring[];
  /** How many wake-ups the timers asked the scheduler for: a spin shows as many per firing. */
  wakeRequests(): number;
}

/**
 * The kernel's timers on `scheduler`, every due timer fired and noted with `clockAt()` then, and
 * each wake-up they ask the scheduler for counted.
 * @param scheduler - the scheduler under test
 * @param clockAt - the clock each firing is noted at (the session's, or the wall clock)
 * @returns the timers and what they did
 */
export function watchedTimers(scheduler: Scheduler, clockAt: () => number): WatchedTimers {
  let wakeRequests = 0;
  const counted: Scheduler = {
    ...scheduler,
    wakeAt(at, wake) {
      wakeRequests++;
      scheduler.wakeAt(at, wake);
    },
  };
  const fired: TimerFiring[] = [];
  const timers = new KernelTimers(counted, () =>
    timers.fireDueNow((timer) => {
      fired.push({ id: timer.id, at: timer.at, missed: timer.missed, clockAt: clockAt() });
      return true;
    }),
  );
  return { timers, fired, wakeRequests: () => wakeRequests };
}
