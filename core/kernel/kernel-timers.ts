import type { Scheduler } from './scheduler.ts';
import type { ScheduledTimer } from './timer-queue.ts';
import { TimerQueue } from './timer-queue.ts';

/** The owner of the kernel's own timers (a sweep's retries), which no strategy's index is. */
export const KERNEL_TIMER_OWNER = -1;

/**
 * Every timer of a kernel: its strategies' (`ctx.setTimer`, `ctx.every`) and its own
 * ({@link KERNEL_TIMER_OWNER}). On
 * virtual time the kernel fires them as events pass; on wall time they arm the scheduler's
 * wake-up for the earliest one.
 */
export class KernelTimers {
  private queue = new TimerQueue();
  private nextId = 1;
  /** The timer being delivered: a repeating timer may cancel itself from its own hook. */
  private firing: ScheduledTimer | undefined;
  private armedAt = Number.POSITIVE_INFINITY;

  /**
   * @param scheduler - the run's scheduler
   * @param wake - what the scheduler calls when a wall-time timer is due
   */
  constructor(
    private readonly scheduler: Scheduler,
    private readonly wake: () => void,
  ) {}

  /** Time of the earliest pending timer; +Infinity when none. */
  get nextAt(): number {
    return this.queue.nextAt;
  }

  /**
   * Sets a timer.
   * @param owner - the strategy's index
   * @param at - first firing time, epoch ms
   * @param every - repeat period in ms; 0 = once
   * @param tag - given back when it fires
   * @returns the timer id
   */
  set(owner: number, at: number, every: number, tag: string): number {
    const timer: ScheduledTimer = {
      id: this.nextId++,
      owner,
      tag,
      at,
      every,
      missed: 0,
      seq: 0,
      cancelled: false,
    };
    this.queue.push(timer);
    this.arm();
    return timer.id;
  }

  /**
   * Cancels a timer; only its owner may.
   * @param owner - who asks
   * @param id - the timer id
   * @returns true when a pending (or currently firing, repeating) timer was cancelled
   */
  cancel(owner: number, id: number): boolean {
    const firing = this.firing;
    if (firing !== undefined && firing.id === id && firing.owner === owner && !firing.cancelled) {
      firing.cancelled = true;
      return true;
    }
    return this.queue.cancel(id, owner);
  }

  /**
   * Fires every timer due at or before `upTo`, in time order then in the order set. On event time,
   * a timer fires only once the clock has reached its time: a clock held back (a lockstep paper
   * session's never passes the venue's) leaves the later ones for when it gets there, so an event
   * stamped far ahead (an order the adapter reported REJECTED on the wall clock) cannot fire a
   * repeating timer for every period up to it. On wall time, a repeating timer that woke more
   * than one period late fires once, for its latest period due, counting the ones it folded in
   * (`TimerEvent.missed`): after the process stalls or the machine sleeps, a strategy's
   * `every(1000)` requotes once, not once per second missed.
   * @param upTo - epoch ms
   * @param fire - delivers one timer; returns false when its owner is gone (no repeat)
   */
  fireDue(upTo: number, fire: (timer: ScheduledTimer) => boolean): void {
    for (;;) {
      const due = this.queue.peekDue(upTo);
      if (due === undefined) break;
      if (this.scheduler.followsEventTime) {
        this.scheduler.advanceTo(due.at);
        if (this.scheduler.clock.now() < due.at) break;
      }
      const timer = this.queue.popDue(upTo);
      if (timer === undefined) break;
      if (timer.every > 0 && !this.scheduler.followsEventTime) foldMissedPeriods(timer, upTo);
      this.firing = timer;
      const alive = fire(timer);
      this.firing = undefined;
      timer.missed = 0;
      if (timer.every > 0 && !timer.cancelled && alive) {
        timer.at += timer.every;
        this.queue.push(timer);
      }
    }
    this.armedAt = Number.POSITIVE_INFINITY;
    this.arm();
  }

  /**
   * Time passes to `ts` (an event's time, or the end of a backtest): on virtual time, fires the
   * timers due by then and moves the clock there; on wall time, nothing (the scheduler wakes the
   * kernel itself).
   * @param ts - epoch ms
   * @param fire - delivers one timer; returns false when its owner is gone (no repeat)
   */
  passTo(ts: number, fire: (timer: ScheduledTimer) => boolean): void {
    if (!this.scheduler.followsEventTime) return;
    if (this.queue.nextAt <= ts) this.fireDue(ts, fire);
    this.scheduler.advanceTo(ts);
  }

  /**
   * The scheduler woke the kernel (wall time): fires the timers due now.
   * @param fire - delivers one timer; returns false when its owner is gone (no repeat)
   */
  fireDueNow(fire: (timer: ScheduledTimer) => boolean): void {
    this.fireDue(this.scheduler.clock.now(), fire);
  }

  /** Drops every timer and cancels the scheduler's pending wake-up (on stop: no timer fires after). */
  disarm(): void {
    this.queue = new TimerQueue();
    this.scheduler.cancelWake();
    this.armedAt = Number.POSITIVE_INFINITY;
  }

  /** Arms the scheduler's wake-up again, e.g. once it moved from virtual to wall time. */
  rearm(): void {
    this.armedAt = Number.POSITIVE_INFINITY;
    this.arm();
  }

  private arm(): void {
    if (this.scheduler.followsEventTime || this.queue.nextAt >= this.armedAt) return;
    this.armedAt = this.queue.nextAt;
    this.scheduler.wakeAt(this.armedAt, this.wake);
  }
}

/**
 * Moves a late repeating timer to its latest period due by `upTo`, counting the earlier periods
 * it skips.
 * @param timer - a repeating timer, popped to fire
 * @param upTo - the time it fires at, epoch ms
 */
function foldMissedPeriods(timer: ScheduledTimer, upTo: number): void {
  const late = Math.floor((upTo - timer.at) / timer.every);
  if (late <= 0) return;
  timer.at += late * timer.every;
  timer.missed = late;
}
