import { describe, expect, it } from 'vitest';
import { PaperApiError } from '../../../backtest/paper-venue/envelope.ts';
import { RateLimits } from '../../../backtest/paper-venue/rate-limits.ts';

function refusal(take: () => void): PaperApiError {
  try {
    take();
  } catch (error) {
    if (error instanceof PaperApiError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('paper venue rate limits', () => {
  it('refuses with 429 and says in whole seconds when the oldest request leaves the window', () => {
    const limits = new RateLimits({ historyOrders: { max: 3, windowMs: 10_000 } });
    for (const at of [1_000, 1_500, 2_000]) limits.take('p1', 'historyOrders', at);
    const refused = refusal(() => limits.take('p1', 'historyOrders', 5_200));
    expect([refused.code, refused.httpStatus, refused.retryAfterSeconds]).toEqual([429, 429, 6]);
    expect(refusal(() => limits.take('p1', 'historyOrders', 10_999)).retryAfterSeconds).toBe(1);
    expect(() => limits.take('p1', 'historyOrders', 11_000)).not.toThrow();
  });
});
