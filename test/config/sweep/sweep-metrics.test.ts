import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../backtest/report/index.ts';
import { sweepMetricNames, sweepMetricProblem } from '../../../config/sweep/sweep-metrics.ts';
import { numericMetrics } from '../../../config/sweep/sweep-task.ts';
import { D } from '../../../core/model/index.ts';

describe('sweep metrics', () => {
  it('are the names a sweep row of a real run carries, its cash flows and liquidations included', () => {
    // A backtest always passes its cash flows and liquidations (backtest/runner/assemble-result.ts).
    const metrics = computeMetrics({
      // A fall on the way, as most runs have: its drawdown's time is a metric too.
      equityCurve: [
        { ts: 0, equity: D(100) },
        { ts: 86_400_000 * 2, equity: D(90) },
        { ts: 86_400_000 * 5, equity: D(120) },
      ],
      trades: [],
      fills: [],
      cashFlows: [{ ts: 1, kind: 'FUNDING_FEE', asset: 'USDT', amount: D('-1'), sym: 'X' }],
      liquidations: [],
    });
    expect(sweepMetricNames()).toEqual(Object.keys(numericMetrics(metrics)));
    expect(sweepMetricNames()).toEqual(
      expect.arrayContaining([
        'totalReturn',
        'sharpe',
        'maxDrawdown',
        'winRate',
        'fundingPaid',
        'interestPaid',
      ]),
    );
    expect(sweepMetricProblem('liquidationCount')).toBeUndefined();
  });

  it('accept a metric, suggest the one meant for a typo or a wrong case, and list them all otherwise', () => {
    expect(sweepMetricProblem('sharpe')).toBeUndefined();
    expect(sweepMetricProblem('totalreturn')).toMatch(
      /^--metric totalreturn is not a result metric \(did you mean totalReturn\?\)/,
    );
    expect(sweepMetricProblem('xyzzy')).toMatch(
      /^--metric xyzzy is not a result metric; the metrics: start, end, /,
    );
  });
});

describe('sweep metrics of a run with a drawdown', () => {
  it('include maxDrawdownTs, which a run that never fell has not', () => {
    expect(sweepMetricNames()).toContain('maxDrawdownTs');
    expect(sweepMetricProblem('maxDrawdownTs')).toBeUndefined();
  });
});
