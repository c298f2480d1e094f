import { describe, expect, it } from 'vitest';
import { monotonicOf, realTimer } from '../../../core/venue/index.ts';

describe('timer port: what durations are measured on', () => {
  it("reads the port's monotonic clock when it has one", () => {
    expect(monotonicOf({ now: () => 1_700_000_000_000, monotonic: () => 42 })).toBe(42);
  });

  it('falls back to now() for a port without one, as a fake or replay port whose time never steps', () => {
    expect(monotonicOf({ now: () => 1_700_000_000_000 })).toBe(1_700_000_000_000);
  });

  it("gives the real port performance.now's clock, not the wall's", () => {
    const timer = realTimer();
    const before = performance.now();
    const reading = monotonicOf(timer);
    expect(reading).toBeGreaterThanOrEqual(before);
    expect(reading).toBeLessThanOrEqual(performance.now());
  });
});
