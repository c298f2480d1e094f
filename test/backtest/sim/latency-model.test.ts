import { describe, expect, it } from 'vitest';
import { createLatencyModel } from '../../../backtest/sim/latency-model.ts';
import { seededRandom } from '../../../core/kernel/index.ts';

describe('sim latency model', () => {
  it('adds jitter in [0, jitterMs) to the fixed delay, the same for the same seed', () => {
    const legs = { orderEntry: { fixedMs: 10, jitterMs: 5 }, marketData: { fixedMs: 2, jitterMs: 0 } };
    const a = createLatencyModel(legs, seededRandom(9));
    const b = createLatencyModel(legs, seededRandom(9));
    const draws = Array.from({ length: 200 }, () => a.orderEntry());
    expect(Array.from({ length: 200 }, () => b.orderEntry())).toEqual(draws);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...draws)).toBeLessThan(15);
    expect(new Set(draws).size).toBe(5);
    expect(a.marketData()).toBe(2);
    // the user-data leg defaults to the market-data leg
    expect(a.userData()).toBe(2);
  });

  it('describes itself for the report and refuses negative delays', () => {
    const model = createLatencyModel(
      { orderEntry: { fixedMs: 10, jitterMs: 5 }, marketData: { fixedMs: 2, jitterMs: 0 } },
      seededRandom(1),
    );
    expect(model.description).toBe('order entry 10ms + U[0,5)ms, market data 2ms, user data 2ms');
    expect(() =>
      createLatencyModel(
        { orderEntry: { fixedMs: -1, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
        seededRandom(1),
      ),
    ).toThrow(/latency.orderEntry must have fixedMs >= 0/);
  });
});
