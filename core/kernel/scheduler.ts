import type { Clock } from './clock.ts';

/**
 * The scheduler port: how time moves for the kernel and how it is woken for strategy timers.
 * A backtest plugs a virtual scheduler (time = event time, timers fire as events pass them);
 * live plugs a wall scheduler (time = wall time, a real timer wakes the kernel); a paper run on
 * the embedded venue plugs one on the replay's time (config/compose/replay-schedulers.ts). The
 * kernel never asks which one it has: it follows `followsEventTime` and calls the methods.
 */
export interface Scheduler {
  /** The run's clock, epoch milliseconds. */
  readonly clock: Clock;
  /** True when event time drives the clock: the kernel fires due timers before each event. */
  readonly followsEventTime: boolean;
  /**
   * Moves time forward to `ts`; never backwards. A no-op on wall time.
   * @param ts - event time, epoch ms
   */
  advanceTo(ts: number): void;
  /**
   * Asks to be woken at `at` (replacing any earlier request). A no-op on virtual time, where
   * passing events move time and fire timers.
   * @param at - epoch ms
   * @param wake - what to call then
   */
  wakeAt(at: number, wake: () => void): void;
  /** Cancels a pending wake-up (on stop). */
  cancelWake(): void;
}
