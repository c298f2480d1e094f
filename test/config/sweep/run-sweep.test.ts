import { describe, expect, it } from 'vitest';
import { computeMetrics, notDefinedReasons } from '../../../backtest/report/index.ts';
import { sortRows, sweepThreads } from '../../../config/sweep/run-sweep.ts';
import { lowerIsBetter } from '../../../config/sweep/sweep-metrics.ts';
import type { SweepRow } from '../../../config/sweep/sweep-task.ts';
import { equityCurveOf } from '../../kit/equity-curve-builders.ts';
import { quietSweepRow } from '../../kit/sweep-rows.ts';

/** A row of one combination named `name`, with these metrics and nothing else of note. */
const row = (name: string, metrics: Record<string, number | null>): SweepRow =>
  quietSweepRow([name], { metrics });

describe('sweep rows', () => {
  it('sort a drawdown, volatility or cost lowest first, and every other metric highest first', () => {
    const rows = [
      row('deep', { maxDrawdown: 0.4, totalReturn: 0.2, feesPaid: 9 }),
      row('none', { maxDrawdown: null, totalReturn: null, feesPaid: null }),
      row('shallow', { maxDrawdown: 0.05, totalReturn: -0.1, feesPaid: 1 }),
      row('mid', { maxDrawdown: 0.2, totalReturn: 0.5, feesPaid: 4 }),
    ];
    const order = (metric: string) => sortRows(rows, metric).map((r) => r.combination[0]);
    expect(order('maxDrawdown')).toEqual(['shallow', 'mid', 'deep', 'none']);
    expect(order('feesPaid')).toEqual(['shallow', 'mid', 'deep', 'none']);
    expect(order('totalReturn')).toEqual(['mid', 'deep', 'shallow', 'none']);
    expect([lowerIsBetter('maxDrawdown'), lowerIsBetter('fundingPaid'), lowerIsBetter('sharpe')]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('rank rows whose strategy threw after every clean row, and failed backtests last', () => {
    const rows: SweepRow[] = [
      { ...row('failed', {}), error: 'the replay window starts after the data' },
      { ...row('halted', { totalReturn: 0 }), faults: ['strategy s: onStart threw'] },
      { ...row('losing', { totalReturn: -0.2 }), fills: 4 },
      { ...row('winning', { totalReturn: 0.1 }), fills: 6 },
    ];
    expect(sortRows(rows, 'totalReturn').map((r) => r.combination[0])).toEqual([
      'winning',
      'losing',
      'halted',
      'failed',
    ]);
  });
});

describe('sweep rows whose metric is n/a', () => {
  const naRow = (
    name: string,
    value: number | null,
    reason?: string,
    more: Partial<SweepRow> = {},
  ): SweepRow => ({
    ...row(name, { profitFactor: value, calmar: value, sortino: value, sharpe: value, kelly: value }),
    ...(reason === undefined
      ? {}
      : {
          notDefined: {
            profitFactor: reason,
            calmar: reason,
            sortino: reason,
            sharpe: reason,
            kelly: reason,
          },
        }),
    ...more,
  });

  it('rank first when n/a says the metric is unbeaten (no losing trades, no drawdown...), last when it says nothing ran', () => {
    const unbeaten = [
      ['profitFactor', 'no losing trades'],
      ['kelly', 'no losing trades'],
      ['calmar', 'no drawdown'],
      ['sortino', 'no period below the risk-free rate'],
      ['sharpe', 'too large to state'],
    ] as const;
    for (const [metric, reason] of unbeaten) {
      const rows = [
        naRow('no trades', null, 'no closed trades'),
        naRow('short', null, 'not annualized: the run is shorter than a day'),
        naRow('good', 2.5),
        naRow('unbeaten', null, reason),
        naRow('bad', 0.5),
        naRow('halted', null, reason, { faults: ['strategy s: onBar threw'] }),
      ];
      expect(
        sortRows(rows, metric).map((r) => r.combination[0]),
        metric,
      ).toEqual(['unbeaten', 'good', 'bad', 'no trades', 'short', 'halted']);
    }
  });
});

describe('sweep rows of runs that never traded', () => {
  it('rank a run whose equity never moved after one that made and lost money, on Calmar and Sortino', () => {
    // Daily equity over four days. 'flat' never moved: Calmar and Sortino are 0 / 0, not unbeaten.
    const rowOf = (name: string, equity: number[]): SweepRow => {
      const metrics = computeMetrics({ equityCurve: equityCurveOf(equity), trades: [], fills: [] });
      return {
        ...quietSweepRow([name], { metrics: { calmar: metrics.calmar, sortino: metrics.sortino } }),
        notDefined: notDefinedReasons(metrics),
      };
    };
    const rows = [
      rowOf('flat', [100, 100, 100, 100, 100]),
      rowOf('choppy', [100, 104, 99, 103, 101]),
      rowOf('rising', [100, 101, 102, 103, 104]),
    ];
    for (const metric of ['calmar', 'sortino'])
      expect(
        sortRows(rows, metric).map((r) => r.combination[0]),
        metric,
      ).toEqual(['rising', 'choppy', 'flat']);
  });
});

describe('the worker threads of a sweep', () => {
  it('are as many as --workers asks, but never more than the combinations (each costs about 100 MB)', () => {
    expect(sweepThreads(6, 1)).toBe(1);
    expect(sweepThreads(2, 300)).toBe(2);
    expect(sweepThreads(4, 3)).toBe(3);
    expect(sweepThreads(4, 0)).toBe(1);
  });
});

describe('sweep rows sorted by maxDrawdownTs', () => {
  it('sort though the first row, a run that never fell, lacks it: that row goes last', () => {
    const rows = [row('flat', { totalReturn: 0 }), row('fell', { totalReturn: -0.1, maxDrawdownTs: 5 })];
    expect(sortRows(rows, 'maxDrawdownTs').map((r) => r.combination[0])).toEqual(['fell', 'flat']);
  });
});
