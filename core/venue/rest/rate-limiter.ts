import { monotonicOf, type TimerPort } from '../timer-port.ts';

/** A rate limit: at most `limit` requests in any `windowMs` window. */
export interface RateLimit {
  readonly limit: number;
  readonly windowMs: number;
}

/** A request waiting for room: granted, or refused when the limiter closes. */
interface Waiter {
  readonly grant: () => void;
  readonly refuse: (reason: unknown) => void;
}

/**
 * A sliding-window rate limiter that queues rather than fails: a request over the limit waits,
 * first come first served, until the window has room, or until the limiter is closed (its
 * client closing), which refuses every request still waiting.
 */
export class RateLimiter {
  /** When each grant in the window was made, on the timer's monotonic reading (a wall step moves no window). */
  private readonly grants: number[] = [];
  private readonly waiting: Waiter[] = [];
  /** Cancels the timer that wakes the queue once the window has room; undefined when none runs. */
  private cancelWake: (() => void) | undefined;
  private closedWith: { readonly reason: unknown } | undefined;

  /**
   * @param rate - the limit and window
   * @param timer - time and timers (fake in tests)
   */
  constructor(
    readonly rate: RateLimit,
    private readonly timer: TimerPort,
  ) {
    if (!(rate.limit > 0) || !(rate.windowMs > 0)) {
      throw new RangeError(
        `rate limit needs a positive limit and window, got ${rate.limit} / ${rate.windowMs} ms`,
      );
    }
  }

  /** Requests waiting for room. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Waits for room in the window and takes it.
   * @returns a promise that resolves when the request may be sent
   * @throws the close's reason when the limiter is closed before the request got room (see
   *   {@link close})
   */
  acquire(): Promise<void> {
    const closed = this.closedWith;
    if (closed !== undefined) return Promise.reject(closed.reason);
    return new Promise((grant, refuse) => {
      this.waiting.push({ grant, refuse });
      this.drain();
    });
  }

  /**
   * Takes room now if the window has some and nobody is waiting: the synchronous fast path of
   * the order-entry socket, so an order is written in the same tick as the event that caused it.
   * @returns true when the request may be sent now; false when it must {@link acquire} (always,
   *   once closed)
   */
  tryAcquire(): boolean {
    if (this.waiting.length > 0 || this.closedWith !== undefined) return false;
    const now = monotonicOf(this.timer);
    while (this.grants.length > 0 && (this.grants[0] as number) <= now - this.rate.windowMs)
      this.grants.shift();
    if (this.grants.length >= this.rate.limit) return false;
    this.grants.push(now);
    return true;
  }

  /**
   * Closes the limiter for good (its client is closing): every request still waiting for room is
   * refused with `reason`, the timer that would have woken them is cancelled, and a request
   * asking afterwards is refused at once. A second close keeps the first reason.
   * @param reason - what the waiting requests are refused with
   */
  close(reason: unknown): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = { reason };
    this.cancelWake?.();
    this.cancelWake = undefined;
    for (const waiter of this.waiting.splice(0)) waiter.refuse(reason);
  }

  private drain(): void {
    if (this.cancelWake !== undefined) return;
    const now = monotonicOf(this.timer);
    while (this.grants.length > 0 && (this.grants[0] as number) <= now - this.rate.windowMs)
      this.grants.shift();
    while (this.waiting.length > 0 && this.grants.length < this.rate.limit) {
      this.grants.push(now);
      (this.waiting.shift() as Waiter).grant();
    }
    if (this.waiting.length === 0) return;
    const wait = (this.grants[0] as number) + this.rate.windowMs - now;
    this.cancelWake = this.timer.setTimer(() => {
      this.cancelWake = undefined;
      this.drain();
    }, wait);
  }
}
