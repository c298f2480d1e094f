import { describe, expect, it } from 'vitest';
import { computeMetrics, renderHtmlReport } from '../../../../backtest/report/index.ts';
import type { BacktestResult } from '../../../../backtest/report/result/backtest-result.ts';
import { D } from '../../../../core/model/index.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';

const T0 = Date.UTC(2024, 0, 1);

/** The equity and drawdown charts' text summaries (their aria-labels) of a page. */
function summaries(html: string): { equity: string; drawdown: string } {
  const label = (id: string) => new RegExp(`id="${id}"[^>]*aria-label="([^"]*)"`).exec(html)?.[1] ?? '';
  return { equity: label('equity-chart'), drawdown: label('drawdown-chart') };
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
