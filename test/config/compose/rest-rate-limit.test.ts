import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { restRateLimitOf } from '../../../config/compose/rest-rate-limit.ts';
import type { KeelConfig } from '../../../config/schema/index.ts';

const withRate = (restRatePerSec: number) => ({ venue: { restRatePerSec } }) as Pick<KeelConfig, 'venue'>;

describe("a live session's REST rate", () => {
  it('is venue.restRatePerSec on the endpoints without a limit of their own, in whole requests', () => {
    expect(restRateLimitOf(withRate(10))).toEqual({ rateLimits: { other: { limit: 10, windowMs: 1000 } } });
    expect(restRateLimitOf(withRate(2.5))).toEqual({ rateLimits: { other: { limit: 3, windowMs: 1200 } } });
    expect(restRateLimitOf(withRate(0.5))).toEqual({ rateLimits: { other: { limit: 1, windowMs: 2000 } } });
  });

  it('allows exactly the configured rate, with at least one request per window', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 10_000, noNaN: true }), (perSec) => {
        const other = restRateLimitOf(withRate(perSec)).rateLimits?.other;
        if (other == null) throw new Error('no limit');
        expect(Number.isInteger(other.limit) && other.limit >= 1).toBe(true);
        expect((other.limit / other.windowMs) * 1000).toBeCloseTo(perSec, 6);
      }),
    );
  });

  it('is not limited without a venue section (paper mode)', () => {
    expect(restRateLimitOf({} as Pick<KeelConfig, 'venue'>)).toEqual({});
  });
});
