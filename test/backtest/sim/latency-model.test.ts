import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLatencyModel, latencyLegSampler } from '../../../backtest/sim/latency-model.ts';
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

  it('draws one leg in whole milliseconds in [fixedMs, fixedMs + jitterMs), the same sequence for the same seed (property)', () => {
    const draws = (seed: number, fixedMs: number, jitterMs: number): number[] => {
      const next = latencyLegSampler({ fixedMs, jitterMs }, seededRandom(seed), 'leg');
      return Array.from({ length: 20 }, () => next());
    };
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 0, max: 1_000 }),
        fc.integer({ min: 1, max: 1_000 }),
        (seed, fixedMs, jitterMs) => {
          const a = draws(seed, fixedMs, jitterMs);
          expect(draws(seed, fixedMs, jitterMs)).toEqual(a);
          for (const d of a) {
            expect(Number.isInteger(d)).toBe(true);
            expect(d).toBeGreaterThanOrEqual(fixedMs);
            expect(d).toBeLessThan(fixedMs + jitterMs);
          }
        },
      ),
    );
    expect(draws(1, 0, 1_000)).not.toEqual(draws(2, 0, 1_000));
    expect(() =>
      latencyLegSampler({ fixedMs: 0, jitterMs: -5 }, seededRandom(1), 'paper venue latency.orderEntry'),
    ).toThrow(/paper venue latency\.orderEntry must have fixedMs >= 0 and jitterMs >= 0, got 0 and -5/);
  });
});
