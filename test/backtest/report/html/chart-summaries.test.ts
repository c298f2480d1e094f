import { describe, expect, it } from 'vitest';
import { computeMetrics, renderHtmlReport } from '../../../../backtest/report/index.ts';
import type { BacktestResult } from '../../../../backtest/report/result/backtest-result.ts';
import { D, type Execution } from '../../../../core/model/index.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';

const T0 = Date.UTC(2024, 0, 1);

/** The equity and drawdown charts' text summaries (their aria-labels) of a page. */
function summaries(html: string): { equity: string; drawdown: string } {
  const label = (id: string) => new RegExp(`id="${id}"[^>]*aria-label="([^"]*)"`).exec(html)?.[1] ?? '';
  return { equity: label('equity-chart'), drawdown: label('drawdown-chart') };
}

/** The first price chart's text summary (its aria-label) of a page. */
function priceSummary(html: string): string {
  return /id="price-chart-0"[^>]*aria-label="([^"]*)"/.exec(html)?.[1] ?? '';
}

/**
 * A result of one sym whose sampled price line is 100, 100, 101 (a minute apart) and whose fills
 * are `fills` ([ms after T0, price]); `extremes` are the lowest and highest price the run marked.
 */
function withPrices(
  extremes: { low: number; lowMs: number; high: number; highMs: number } | undefined,
  fills: readonly (readonly [number, number])[] = [],
): BacktestResult {
  const base = withCurve([
    [0, 100],
    [120_000, 100],
  ]);
  const sym = base.prices[0]?.sym ?? '';
  const points = [0, 60_000, 120_000].map((ms, i) => ({ ts: T0 + ms, price: i === 2 ? 101 : 100 }));
  const [fill] = [...base.fills] as Execution[];
  return {
    ...base,
    fills: fills.map(([ms, price], i) => ({
      ...(fill as Execution),
      transactionId: `f${i}`,
      timestamp: T0 + ms,
      price: D(price),
    })),
    prices: [
      {
        sym,
        points,
        bucketMs: 60_000,
        ...(extremes === undefined
          ? {}
          : {
              low: { ts: T0 + extremes.lowMs, price: extremes.low },
              high: { ts: T0 + extremes.highMs, price: extremes.high },
            }),
      },
    ],
  };
}

/** A result whose equity curve is `samples` ([ms after T0, equity]), its metrics computed on it. */
function withCurve(samples: readonly (readonly [number, number])[]): BacktestResult {
  const base = aBacktestResult(60);
  const equityCurve = samples.map(([ms, equity]) => ({ ts: T0 + ms, equity: D(equity) }));
  return {
    ...base,
    equityCurve,
    metrics: computeMetrics({ equityCurve, trades: [], fills: [] }),
  };
}

describe('chart summaries: from the full data, not the points the charts draw', () => {
  it('says the deepest drawdown of result.json, even where the chart keeps only the last point of its second', () => {
    // 110 -> 88 at 2.2 s is a 20 % drawdown; the chart draws one point a second, the last (109).
    const result = withCurve([
      [0, 100],
      [1000, 110],
      [2200, 88],
      [2700, 109],
      [3000, 120],
    ]);
    expect(result.metrics.maxDrawdown).toBeCloseTo(0.2, 12);
    const { equity, drawdown } = summaries(renderHtmlReport(result, { settleAsset: 'USDT' }));
    expect(equity).toContain('lowest 88.00 at 2024-01-01 00:00:02.200 UTC');
    expect(equity).toContain('max drawdown 20.00 % at 2024-01-01 00:00:02.200 UTC');
    expect(drawdown).toContain('max drawdown 20.00 % at 2024-01-01 00:00:02.200 UTC, 0.00 % at the end');
  });

  it('says the max drawdown and its time as the metrics measured them on every sample, when the stored curve lost that point', () => {
    // A run measures drawdowns on every sample; its stored curve keeps each bucket's low, high and
    // close, so a fall from a high the bucket dropped is deeper in the metrics than on the curve.
    const result = withCurve([
      [0, 100],
      [60_000, 95],
      [120_000, 101],
    ]);
    const metrics = { ...result.metrics, maxDrawdown: 0.125, maxDrawdownTs: T0 + 30_000 };
    const { equity, drawdown } = summaries(renderHtmlReport({ ...result, metrics }, { settleAsset: 'USDT' }));
    expect(equity).toContain('max drawdown 12.50 % at 2024-01-01 00:00:30 UTC');
    expect(drawdown).toContain('max drawdown 12.50 % at 2024-01-01 00:00:30 UTC');
  });

  it('takes the time from the curve for a result written before Keel recorded it', () => {
    const result = withCurve([
      [0, 100],
      [60_000, 95],
      [120_000, 101],
    ]);
    const { maxDrawdownTs: _, ...older } = result.metrics;
    const { drawdown } = summaries(renderHtmlReport({ ...result, metrics: older }, { settleAsset: 'USDT' }));
    expect(drawdown).toContain('max drawdown 5.00 % at 2024-01-01 00:01:00 UTC, 0.00 % at the end');
  });
});

describe('price chart summary: every price the run marked, not only the bucket closes the chart draws', () => {
  it("says the run's lowest and highest price, inside buckets the line only shows the closes of", () => {
    const summary = priceSummary(
      renderHtmlReport(withPrices({ low: 90, lowMs: 10_000, high: 130, highMs: 20_500 }), {
        settleAsset: 'USDT',
      }),
    );
    expect(summary).toContain(
      'first 100, last 101, lowest 90 at 2024-01-01 00:00:10 UTC, highest 130 at 2024-01-01 00:00:20.500 UTC',
    );
  });

  it('says a drawn fill price beyond every marked price, as the line drawn dips to it', () => {
    const summary = priceSummary(
      renderHtmlReport(withPrices({ low: 99, lowMs: 10_000, high: 102, highMs: 20_000 }, [[30_000, 98]]), {
        settleAsset: 'USDT',
      }),
    );
    expect(summary).toContain(
      'lowest 98 at 2024-01-01 00:00:30 UTC, highest 102 at 2024-01-01 00:00:20 UTC; 1 fills (1 buys, 0 sells)',
    );
  });

  it('says the lowest and highest are sampled for a result written before Keel recorded the extremes', () => {
    const summary = priceSummary(renderHtmlReport(withPrices(undefined), { settleAsset: 'USDT' }));
    expect(summary).toContain(
      'lowest sampled 100 at 2024-01-01 00:00:00 UTC, highest sampled 101 at 2024-01-01 00:02:00 UTC',
    );
  });
});
