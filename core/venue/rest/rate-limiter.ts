import type { TimerPort } from '../timer-port.ts';

/** A rate limit: at most `limit` requests in any `windowMs` window. */
export interface RateLimit {
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * A sliding-window rate limiter that queues rather than fails: a request over the limit waits,
 * first come first served, until the window has room.
 */
export class RateLimiter {
  private readonly grants: number[] = [];
  private readonly waiting: Array<() => void> = [];
  private wakeScheduled = false;

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
   */
  acquire(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.drain();
    });
  }

  /**
   * Takes room now if the window has some and nobody is waiting: the synchronous fast path of
   * the order-entry socket, so an order is written in the same tick as the event that caused it.
   * @returns true when the request may be sent now; false when it must {@link acquire}
   */
  tryAcquire(): boolean {
    if (this.waiting.length > 0) return false;
    const now = this.timer.now();
    while (this.grants.length > 0 && (this.grants[0] as number) <= now - this.rate.windowMs)
      this.grants.shift();
    if (this.grants.length >= this.rate.limit) return false;
    this.grants.push(now);
    return true;
  }

  private drain(): void {
    if (this.wakeScheduled) return;
    const now = this.timer.now();
    while (this.grants.length > 0 && (this.grants[0] as number) <= now - this.rate.windowMs)
      this.grants.shift();
    while (this.waiting.length > 0 && this.grants.length < this.rate.limit) {
      this.grants.push(now);
      (this.waiting.shift() as () => void)();
    }
    if (this.waiting.length === 0) return;
    this.wakeScheduled = true;
    const wait = (this.grants[0] as number) + this.rate.windowMs - now;
    this.timer.setTimer(() => {
      this.wakeScheduled = false;
      this.drain();
    }, wait);
  }
}
