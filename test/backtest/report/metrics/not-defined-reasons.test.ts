import { describe, expect, it } from 'vitest';
import { computeMetrics, notDefinedReasons, whyNotDefined } from '../../../../backtest/report/index.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';
import { equityCurveOf } from '../../../kit/equity-curve-builders.ts';

describe('why metrics are not defined', () => {
  it('gives the reason of each null metric of a run, as its single-run report says it, and none for a defined one', () => {
    const short = aBacktestResult(4).metrics; // 4 hourly samples, no closed trade
    const reasons = notDefinedReasons(short);
    expect(reasons.sharpe).toBe('not annualized: the run is shorter than a day');
    expect(reasons.winRate).toBe('no closed trades');
    expect(short.totalReturn).not.toBeNull();
    expect(reasons.totalReturn).toBeUndefined();
    for (const [metric, reason] of Object.entries(reasons)) {
      expect(short[metric as keyof typeof short], metric).toBeNull();
      expect(reason).toBe(whyNotDefined(metric as keyof typeof reasons, short));
    }
  });

  it('says the turnover ratio is not defined for a mean equity below zero, not that the mean is 0', () => {
    // Equity 100 then -300: mean equity (100 - 300) / 2 = -100, so turnover / mean equity is n/a.
    const m = computeMetrics({ equityCurve: equityCurveOf([100, -300]), trades: [], fills: [] });
    expect(m.turnoverRatio).toBeNull();
    expect(whyNotDefined('turnoverRatio', m)).toBe('the mean equity is not positive');
  });
});
