import type { RateLimitGroup } from '../../core/venue/index.ts';
import { PaperApiError } from './envelope.ts';

/** One limit: at most `max` requests per `windowMs`, per trading portfolio (spec, 24 Oct 22th). */
export interface WindowLimit {
  readonly max: number;
  readonly windowMs: number;
}

/**
 * The spec's limits (history orders and history position 30 / 10 s, statement 100 / 60 s) and the
 * public docs' (query order 1200 / 60 s; WebSocket place order 1200 / 60 s; private WebSocket login
 * 1 per second). Other endpoints are not limited (spec: not shown; configurable).
 */
export const PAPER_RATE_LIMITS: Readonly<
  Partial<Record<RateLimitGroup | 'wsPlaceOrder' | 'wsLogin', WindowLimit>>
> = {
  historyOrders: { max: 30, windowMs: 10_000 },
  historyPosition: { max: 30, windowMs: 10_000 },
  statement: { max: 100, windowMs: 60_000 },
  queryOrder: { max: 1200, windowMs: 60_000 },
  wsPlaceOrder: { max: 1200, windowMs: 60_000 },
  wsLogin: { max: 1, windowMs: 1000 },
};

/** Sliding-window request counters per portfolio and group, on the server's clock. */
export class RateLimits {
  private readonly hits = new Map<string, number[]>();

  /**
   * @param limits - the limits per group
   */
  constructor(private readonly limits: Readonly<Partial<Record<string, WindowLimit>>>) {}

  /**
   * Counts one request, or refuses it.
   * @param portfolioId - the trading portfolio
   * @param group - the endpoint's group
   * @param nowMs - the server's clock
   * @throws PaperApiError HTTP 429 when the window is full, with the whole seconds until its
   *   oldest request leaves it (at least 1) for the reply's `Retry-After`
   */
  take(portfolioId: string, group: string, nowMs: number): void {
    const limit = this.limits[group];
    if (!limit) return;
    const key = `${portfolioId}|${group}`;
    const recent = (this.hits.get(key) ?? []).filter((t) => t > nowMs - limit.windowMs);
    if (recent.length >= limit.max) {
      this.hits.set(key, recent);
      throw new PaperApiError(
        429,
        `rate limited: ${group} allows ${limit.max} requests per ${limit.windowMs / 1000} s per trading portfolio`,
        429,
        Math.max(1, Math.ceil(((recent[0] ?? nowMs) + limit.windowMs - nowMs) / 1000)),
      );
    }
    recent.push(nowMs);
    this.hits.set(key, recent);
  }
}
