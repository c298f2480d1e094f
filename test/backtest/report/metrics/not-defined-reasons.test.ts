import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeMetrics,
  notDefinedReasons,
  UNBEATEN_REASONS,
  whyNotDefined,
} from '../../../../backtest/report/index.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';
import { equityCurveOf } from '../../../kit/equity-curve-builders.ts';
import { aRoundTripTrade } from '../../../kit/round-trip-trade-builders.ts';

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

  it('does not call a run that never moved unbeaten on Calmar or Sortino: both are 0 / 0 there', () => {
    // Equity 100 for five days, no trades: CAGR 0 and max drawdown 0, so Calmar is 0 / 0 (NaN in
    // backtesting.py and QuantStats); every daily return is 0 = rf / P, so the mean excess return
    // and the downside deviation are both 0 and Sortino is 0 / 0 too. A sweep ranks a metric whose
    // reason is in UNBEATEN_REASONS as the best value, so a run that never traded came first.
    const flat = computeMetrics({
      equityCurve: equityCurveOf([100, 100, 100, 100, 100]),
      trades: [],
      fills: [],
    });
    expect([flat.calmar, flat.sortino]).toEqual([null, null]);
    expect(whyNotDefined('calmar', flat)).toBe('equity never moved');
    expect(whyNotDefined('sortino', flat)).toBe('every period returned the risk-free rate');
    expect(UNBEATEN_REASONS.has(whyNotDefined('calmar', flat))).toBe(false);
    expect(UNBEATEN_REASONS.has(whyNotDefined('sortino', flat))).toBe(false);
  });

  it('still calls a run that only rose unbeaten on Calmar and Sortino', () => {
    // 100, 101, 102, 103, 104: no drawdown and CAGR > 0 (Calmar +inf), no return below rf = 0 and
    // a positive mean (Sortino +inf).
    const rising = computeMetrics({
      equityCurve: equityCurveOf([100, 101, 102, 103, 104]),
      trades: [],
      fills: [],
    });
    expect(whyNotDefined('calmar', rising)).toBe('no drawdown');
    expect(whyNotDefined('sortino', rising)).toBe('no period below the risk-free rate');
    expect(UNBEATEN_REASONS.has(whyNotDefined('calmar', rising))).toBe(true);
    expect(UNBEATEN_REASONS.has(whyNotDefined('sortino', rising))).toBe(true);
  });

  it('calls a run whose returns never varied unbeaten on Sharpe only when that steady return beat the risk-free rate', () => {
    // Daily returns +1 % each (100, 101, 102.01, ...): std 0 and mean excess 0.01 > 0, Sharpe +inf
    // (backtesting.py NaN); -1 % each: -inf; 0 each: 0 / 0. Only the first ranks first in a sweep.
    const reasonOf = (curve: number[]): string => {
      const m = computeMetrics({ equityCurve: equityCurveOf(curve), trades: [], fills: [] });
      expect([m.sharpe, m.annualizedVolatility]).toEqual([null, 0]);
      return whyNotDefined('sharpe', m);
    };
    const rising = reasonOf([100, 101, 102.01, 103.0301, 104.060401]);
    expect(rising).toBe('zero volatility: every period returned the same, above the risk-free rate');
    expect(UNBEATEN_REASONS.has(rising)).toBe(true);
    for (const curve of [
      [100, 99, 98.01, 97.0299, 96.059601],
      [100, 100, 100, 100, 100],
    ]) {
      const reason = reasonOf(curve);
      expect(reason).toBe('zero volatility: the returns do not vary');
      expect(UNBEATEN_REASONS.has(reason)).toBe(false);
    }
  });

  it('does not call a run whose every trade broke even unbeaten on profit factor: it is 0 / 0', () => {
    // PnL 0 and 0: gross profit 0, gross loss 0 (backtesting.py NaN, QuantStats 0).
    const m = computeMetrics({
      equityCurve: equityCurveOf([100, 100, 100]),
      trades: [aRoundTripTrade(0), aRoundTripTrade(0)],
      fills: [],
    });
    expect(m.profitFactor).toBeNull();
    expect(whyNotDefined('profitFactor', m)).toBe('every trade broke even');
    expect(UNBEATEN_REASONS.has(whyNotDefined('profitFactor', m))).toBe(false);
    const won = computeMetrics({
      equityCurve: equityCurveOf([100, 105, 105]),
      trades: [aRoundTripTrade(5), aRoundTripTrade(0)],
      fills: [],
    });
    expect(whyNotDefined('profitFactor', won)).toBe('no losing trades');
  });

  it('gives an unbeaten reason for profit factor, Kelly and Calmar only when a winner or growth is there (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 8 }), (pnls) => {
        const m = computeMetrics({
          equityCurve: equityCurveOf([100, 100 + pnls.reduce((a, p) => a + p, 0)]),
          trades: pnls.map((p) => aRoundTripTrade(p)),
          fills: [],
        });
        const wins = pnls.filter((p) => p > 0).length;
        for (const metric of ['profitFactor', 'kelly'] as const)
          if (m[metric] === null)
            expect(UNBEATEN_REASONS.has(whyNotDefined(metric, m)), metric).toBe(wins > 0);
        if (m.calmar === null)
          expect(UNBEATEN_REASONS.has(whyNotDefined('calmar', m))).toBe((m.cagr ?? 0) > 0);
      }),
    );
  });
});
