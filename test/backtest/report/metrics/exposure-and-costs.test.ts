import { describe, expect, it } from 'vitest';
import { costStats, exposureTime } from '../../../../backtest/report/index.ts';
import { D } from '../../../../core/model/index.ts';
import { anExecution } from '../../../kit/execution-builders.ts';

describe('exposure time', () => {
  it('is the union of the open intervals over the run: (15 + 10) / 40', () => {
    const intervals = [
      { from: 0, to: 10 },
      { from: 5, to: 15 },
      { from: 20, to: 30 },
    ];
    expect(exposureTime(intervals, 0, 40)).toBe(0.625);
  });

  it('clips intervals to the run and is 0 for an empty run', () => {
    expect(exposureTime([{ from: -10, to: 50 }], 0, 40)).toBe(1);
    expect(exposureTime([{ from: 0, to: 10 }], 5, 5)).toBe(0);
    expect(exposureTime([], 0, 40)).toBe(0);
  });
});

describe('fees and turnover', () => {
  const fills = [
    anExecution({ side: 'BUY', quantity: '2', price: '100', fee: '0.2', timestamp: 0 }),
    anExecution({ side: 'SELL', quantity: '2', price: '110', fee: '0.22', rebate: '0.02', timestamp: 1 }),
  ];

  it('sums fees net of rebates and the traded notional', () => {
    const s = costStats(fills, 1000);
    expect(s.feesPaid.toFixed()).toBe('0.4');
    expect(s.turnover.toFixed()).toBe('420');
    expect(s.turnoverRatio).toBeCloseTo(0.42, 12);
  });

  it('scales notional by the contract size and has no ratio without positive equity', () => {
    const s = costStats(fills, 0, () => D('0.01'));
    expect(s.turnover.toFixed()).toBe('4.2');
    expect(s.turnoverRatio).toBeNull();
  });
});
