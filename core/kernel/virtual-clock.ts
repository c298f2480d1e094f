import type { Clock } from './clock.ts';
import type { Scheduler } from './scheduler.ts';

/**
 * A clock that only moves when told: backtests advance it to each event's time, so a run of the
 * same events sees the same times on every machine.
 */
export class VirtualClock implements Clock {
  private current: number;

  /**
   * @param start - initial time, epoch ms
   */
  constructor(start = 0) {
    this.current = start;
  }

  /**
   * The current virtual time.
   * @returns epoch ms
   */
  now(): number {
    return this.current;
  }

  /**
   * Moves time forward; a time earlier than now is ignored, so time never runs backwards.
   * @param ts - epoch ms
   */
  advanceTo(ts: number): void {
    if (ts > this.current) this.current = ts;
  }
}

/** A scheduler on virtual time, with its clock exposed for the composition root. */
export interface VirtualScheduler extends Scheduler {
  readonly clock: VirtualClock;
}

/**
 * The backtest scheduler: time is event time and timers fire when events (or an explicit
 * `Kernel.advanceTime`) pass them, in time order.
 * @param start - initial virtual time, epoch ms
 * @returns a scheduler whose clock follows event time
 * @example
 * const scheduler = virtualScheduler(Date.parse('2026-01-05T14:30:00Z'));
 * const kernel = new Kernel({ scheduler, ... });
 */
export function virtualScheduler(start = 0): VirtualScheduler {
  const clock = new VirtualClock(start);
  return {
    clock,
    followsEventTime: true,
    advanceTo(ts: number): void {
      clock.advanceTo(ts);
    },
    wakeAt(): void {},
    cancelWake(): void {},
  };
}
