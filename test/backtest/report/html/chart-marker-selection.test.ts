// Reviewer a11y, session 31: above MAX_FILL_MARKERS the price chart drew "an evenly spaced
// selection" of every k-th fill. A strategy that alternates BUY / SELL (every long-flat or
// flip strategy) with an even stride k then showed only its buys: the chart read as a
// strategy that never sells (a flipper with 3828 fills, 1914 BUY and 1914 SELL, drew 1914
// markers, all arrowUp). Each side is now thinned in its own order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chartData,
  MAX_FILL_MARKERS,
  markerStride,
  renderHtmlReport,
} from '../../../../backtest/report/index.ts';
import type { BacktestResult } from '../../../../backtest/report/result/backtest-result.ts';
import type { Execution } from '../../../../core/model/index.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';

const base = aBacktestResult(300);
const template = [...base.fills][0] as Execution;
const start = base.prices[0]!.points[0]!.ts;

function withSides(sides: readonly boolean[]): BacktestResult {
  const fills: Execution[] = sides.map((buy, i) => ({
    ...template,
    transactionId: `t${i}`,
    side: buy ? 'BUY' : 'SELL',
    timestamp: start + i * 5_000,
  }));
  return { ...base, fills } as unknown as BacktestResult;
}

const sidesOf = (result: BacktestResult) => {
  const markers = chartData(result).prices[0]!.markers;
  return {
    buys: markers.filter((m) => m.shape === 'arrowUp').length,
    sells: markers.filter((m) => m.shape === 'arrowDown').length,
  };
};

describe('fill markers of a sym with more fills than MAX_FILL_MARKERS', () => {
  it('show both sides of a strategy that alternates BUY and SELL, in proportion, and say so', () => {
    const count = 2 * MAX_FILL_MARKERS; // every 2nd fill drew only the buys
    const result = withSides(Array.from({ length: count }, (_, i) => i % 2 === 0));
    expect(markerStride(count / 2, count / 2)).toBe(2);
    expect(sidesOf(result), `drawn of ${count / 2} buys and ${count / 2} sells`).toEqual({
      buys: count / 4,
      sells: count / 4,
    });
    expect(renderHtmlReport(result)).toContain(
      `Fill markers: ${count / 2} of ${count} shown (every 2nd buy and every 2nd sell: ${count / 4} of ${count / 2} buys, ${count / 4} of ${count / 2} sells); every fill is in fills.csv and result.json.`,
    );
  });

  it('draw every k-th buy and every k-th sell, at most MAX_FILL_MARKERS, whatever the order of sides', () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: MAX_FILL_MARKERS + 1, maxLength: 3 * MAX_FILL_MARKERS }),
        fc.boolean(),
        (random, alternate) => {
          const sides = alternate ? random.map((_, i) => i % 2 === 0) : random;
          const buys = sides.filter(Boolean).length;
          const sells = sides.length - buys;
          const k = markerStride(buys, sells);
          const drawn = sidesOf(withSides(sides));
          expect(drawn).toEqual({ buys: Math.ceil(buys / k), sells: Math.ceil(sells / k) });
          expect(drawn.buys + drawn.sells).toBeLessThanOrEqual(MAX_FILL_MARKERS);
          // The smallest such k: one less would draw too many.
          if (k > 1)
            expect(Math.ceil(buys / (k - 1)) + Math.ceil(sells / (k - 1))).toBeGreaterThan(MAX_FILL_MARKERS);
        },
      ),
      { numRuns: 30 },
    );
  });
});
