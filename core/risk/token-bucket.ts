import type { RateLimit } from './risk-limits.ts';

/**
 * A token bucket on the run's clock: `limit` tokens per `intervalMs`, refilled continuously,
 * starting full. Time comes from the caller (`view.now()`), so there are no timers and backtests
 * throttle on virtual time. Counts are kept in integer units (token * intervalMs) so refills do
 * not drift.
 */
export class TokenBucket {
  readonly #capacity: number;
  readonly #cost: number;
  readonly #refillPerMs: number;
  #units: number;
  #last: number | undefined;

  /**
   * @param rate - the rate limit
   */
  constructor(rate: RateLimit) {
    this.#cost = rate.intervalMs;
    this.#capacity = rate.limit * rate.intervalMs;
    this.#refillPerMs = rate.limit;
    this.#units = this.#capacity;
  }

  /**
   * Whether a token is available now (does not take it).
   * @param now - current time, epoch ms
   * @returns true when a command may pass
   */
  canTake(now: number): boolean {
    this.#refill(now);
    return this.#units >= this.#cost;
  }

  /**
   * Takes a token if one is available.
   * @param now - current time, epoch ms
   * @returns true when a token was taken
   */
  take(now: number): boolean {
    if (!this.canTake(now)) return false;
    this.#units -= this.#cost;
    return true;
  }

  #refill(now: number): void {
    if (this.#last !== undefined && now > this.#last) {
      this.#units = Math.min(this.#capacity, this.#units + (now - this.#last) * this.#refillPerMs);
    }
    if (this.#last === undefined || now > this.#last) this.#last = now;
  }
}
