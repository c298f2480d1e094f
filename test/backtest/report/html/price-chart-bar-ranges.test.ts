import { describe, expect, it } from 'vitest';
import { chartData } from '../../../../backtest/report/html/chart-data.ts';
import { priceLineSample } from '../../../../backtest/report/html/charts-section.ts';
import { renderHtmlReport } from '../../../../backtest/report/index.ts';
import type { BacktestResult } from '../../../../backtest/report/result/backtest-result.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';

const DAY = 86_400_000;
const MINUTE = 60_000;
const T0 = Date.UTC(2024, 0, 2);

/** A result whose one sym's line is three daily bars' closes, each point with its bar's range. */
function onDailyBars(): BacktestResult {
  const base = aBacktestResult(3);
  const sym = base.prices[0]?.sym ?? '';
  return {
    ...base,
    fills: [],
    prices: [
      {
        sym,
        bucketMs: MINUTE,
        barMs: DAY,
        points: [
          { ts: T0, price: 100, low: 99, high: 101 },
          { ts: T0 + DAY, price: 102, low: 98.5, high: 103 },
          { ts: T0 + 2 * DAY, price: 112, low: 101, high: 113 },
        ],
        low: { ts: T0 + DAY, price: 98.5 },
        high: { ts: T0 + 2 * DAY, price: 113 },
      },
    ],
  };
}

const attribute = (html: string, id: string, name: string): string =>
  new RegExp(`id="${id}"[^>]*${name}="([^"]*)"`).exec(html)?.[1] ?? '';

describe('price chart on bar data', () => {
  it("draws each bucket's bar range under the line, and says the bars' low and high are the lowest and highest", () => {
    const result = onDailyBars();
    expect(chartData(result).prices[0]?.ranges).toEqual([
      [T0 / 1000, 99, 101, 100],
      [(T0 + DAY) / 1000, 98.5, 103, 102],
      [(T0 + 2 * DAY) / 1000, 101, 113, 112],
    ]);
    const summary = attribute(renderHtmlReport(result), 'price-chart-0', 'aria-label');
    expect(summary).toContain(
      'lowest 98.5 at 2024-01-03 00:00:00 UTC, highest 113 at 2024-01-04 00:00:00 UTC',
    );
  });

  it('draws no ranges for quote or trade data', () => {
    expect(chartData(aBacktestResult(3)).prices[0]?.ranges).toEqual([]);
  });

  it('names the interval of the points: the bars when they are longer than a bucket, else the buckets', () => {
    expect(priceLineSample(MINUTE, DAY)).toBe('1 day bar closes with their low-high ranges');
    expect(priceLineSample(32 * MINUTE, MINUTE)).toBe(
      'bucket closes every 32 min with the low-high range of the 1 min bars in each',
    );
    expect(priceLineSample(32 * MINUTE, undefined)).toBe('bucket closes every 32 min');
    expect(priceLineSample(undefined, undefined)).toBe('sampled bucket closes');
    expect(renderHtmlReport(onDailyBars())).toContain(
      'price [USDT] (1 day bar closes with their low-high ranges, plus fill prices) and fills, time in UTC',
    );
  });
});
