import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../../core/risk/index.ts';

describe('token bucket', () => {
  it('starts full, empties, and refills continuously on the given clock', () => {
    const bucket = new TokenBucket({ limit: 2, intervalMs: 1000 });
    expect(bucket.take(0)).toBe(true);
    expect(bucket.take(0)).toBe(true);
    expect(bucket.take(0)).toBe(false);
    expect(bucket.take(499)).toBe(false);
    expect(bucket.take(500)).toBe(true);
    expect(bucket.take(10_000)).toBe(true);
    expect(bucket.take(10_000)).toBe(true);
    expect(bucket.take(10_000)).toBe(false);
  });

  it('never refills from a clock going backwards', () => {
    const bucket = new TokenBucket({ limit: 1, intervalMs: 1000 });
    expect(bucket.take(5000)).toBe(true);
    expect(bucket.take(0)).toBe(false);
    expect(bucket.take(5999)).toBe(false);
    expect(bucket.take(6000)).toBe(true);
  });
});
