import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  annualizedReturn,
  annualizedVolatility,
  sharpeRatio,
  sortinoRatio,
  tradeStats,
} from '../../../../backtest/report/index.ts';
import { aRoundTripTrade } from '../../../kit/round-trip-trade-builders.ts';

// The formulas of QuantStats (quantstats/stats.py) and backtesting.py (backtesting/_stats.py,
// compute_stats) restated as plain test oracles, to check Keel's metrics against on random data.

function oracleMean(xs: readonly number[]): number {
  return xs.reduce((a, x) => a + x, 0) / xs.length;
}

/** pandas' std(): ddof 1. */
function oracleStd(xs: readonly number[]): number {
  const m = oracleMean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

/** QuantStats `sortino` (rf = 0): mean / sqrt(Σ r² over r < 0 / n) x sqrt(P). */
function quantStatsSortino(r: readonly number[], p: number): number | null {
  const downside = Math.sqrt(r.filter((x) => x < 0).reduce((a, x) => a + x * x, 0) / r.length);
  return downside === 0 ? null : (oracleMean(r) / downside) * Math.sqrt(p);
}

/** backtesting.py "Return (Ann.)": (1 + geometric mean)^P - 1. */
function backtestingPyAnnualReturn(r: readonly number[], p: number): number {
  const g = Math.exp(r.reduce((a, x) => a + Math.log(1 + x), 0) / r.length) - 1;
  return (1 + g) ** p - 1;
}

/** Period returns of whole basis points in [-20 %, +20 %], two to forty of them, not all equal. */
const arbitraryReturns = fc
  .array(fc.integer({ min: -2000, max: 2000 }), { minLength: 2, maxLength: 40 })
  .map((bps) => bps.map((b) => b / 10_000))
  .filter((r) => r.some((x) => x !== r[0]));

const periodsPerYear = fc.constantFrom(252, 365, 365 * 1440, 252 * 390);

function relativeError(actual: number | null, expected: number | null): number {
  if (actual === null || expected === null) return actual === expected ? 0 : Number.POSITIVE_INFINITY;
  return Math.abs(actual - expected) / Math.max(Math.abs(expected), 1e-12);
}

describe('return metrics against the reference formulas', () => {
  it("volatility, Sharpe and Sortino are QuantStats', annualized return backtesting.py's (property)", () => {
    fc.assert(
      fc.property(arbitraryReturns, periodsPerYear, (r, p) => {
        expect(relativeError(annualizedVolatility(r, p), oracleStd(r) * Math.sqrt(p))).toBeLessThan(1e-9);
        expect(relativeError(sharpeRatio(r, p), (oracleMean(r) / oracleStd(r)) * Math.sqrt(p))).toBeLessThan(
          1e-9,
        );
        expect(relativeError(sortinoRatio(r, p), quantStatsSortino(r, p))).toBeLessThan(1e-9);
        expect(relativeError(annualizedReturn(r, 252), backtestingPyAnnualReturn(r, 252))).toBeLessThan(1e-9);
      }),
    );
  });

  it('Sharpe and Sortino do not change when every return is scaled by the same factor (property)', () => {
    fc.assert(
      fc.property(
        arbitraryReturns,
        fc.integer({ min: 1, max: 400 }).map((c) => c / 100),
        (r, k) => {
          const scaled = r.map((x) => x * k);
          expect(relativeError(sharpeRatio(scaled, 365), sharpeRatio(r, 365))).toBeLessThan(1e-9);
          expect(relativeError(sortinoRatio(scaled, 365), sortinoRatio(r, 365))).toBeLessThan(1e-9);
        },
      ),
    );
  });

  it('annualizes crypto over 365 days and equities over 252: the ratios differ by sqrt(365 / 252)', () => {
    // r = 0.01, -0.02, 0.03, -0.01, 0.02: mean 0.006; deviations 0.004, -0.026, 0.024, -0.016, 0.014,
    // Σ squares 0.00172, std = sqrt(0.00172 / 4) = 0.0207364; Sharpe = 0.006 / 0.0207364 x sqrt(P).
    // Downside sqrt((0.0004 + 0.0001) / 5) = 0.01, Sortino = 0.006 / 0.01 x sqrt(P) = 0.6 sqrt(P).
    const r = [0.01, -0.02, 0.03, -0.01, 0.02];
    expect(sharpeRatio(r, 252)).toBeCloseTo((0.006 / Math.sqrt(0.00172 / 4)) * Math.sqrt(252), 10);
    expect(sharpeRatio(r, 365)).toBeCloseTo((0.006 / Math.sqrt(0.00172 / 4)) * Math.sqrt(365), 10);
    expect(sortinoRatio(r, 252)).toBeCloseTo(0.6 * Math.sqrt(252), 10); // 9.5247
    expect(sortinoRatio(r, 365)).toBeCloseTo(0.6 * Math.sqrt(365), 10); // 11.4630
    expect(annualizedVolatility(r, 365)! / annualizedVolatility(r, 252)!).toBeCloseTo(
      Math.sqrt(365 / 252),
      12,
    );
  });

  it('has no Sortino without a losing period (QuantStats: NaN), and no Sharpe at zero volatility', () => {
    expect(sortinoRatio([0.01, 0.02, 0.03], 365)).toBeNull();
    expect(annualizedVolatility([0.01, 0.01, 0.01], 365)).toBe(0);
    expect(sharpeRatio([0.01, 0.01, 0.01], 365)).toBeNull();
  });
});

describe('trade metrics against backtesting.py', () => {
  it('match its formulas on trades of one entry notional, where its profit factor on returns is ours on money (property)', () => {
    // Entry notional 100 each: pnl = 100 x r, so Σ winning returns / |Σ losing returns| is the
    // money ratio too.
    const cents = fc.integer({ min: -5000, max: 5000 });
    fc.assert(
      fc.property(fc.array(cents, { minLength: 2, maxLength: 30 }), (rows) => {
        const r = rows.map((c) => c / 10_000);
        const pl = rows.map((c) => c / 100);
        const s = tradeStats(rows.map((_, i) => aRoundTripTrade(pl[i]!, r[i]!, 1000 * (i + 1))));
        const wins = pl.filter((x) => x > 0);
        const losses = pl.filter((x) => x < 0);
        const winRate = wins.length / pl.length;
        const gain = r.filter((x) => x > 0).reduce((a, x) => a + x, 0);
        const loss = -r.filter((x) => x < 0).reduce((a, x) => a + x, 0);
        const std = oracleStd(pl);
        expect(s.winRate).toBe(winRate);
        expect(s.bestTrade).toBe(Math.max(...r));
        expect(s.worstTrade).toBe(Math.min(...r));
        expect(relativeError(s.avgTrade, Math.exp(oracleMean(r.map((x) => Math.log1p(x)))) - 1)).toBeLessThan(
          1e-9,
        );
        expect(relativeError(s.expectancy, oracleMean(r))).toBeLessThan(1e-9);
        expect(s.avgTradeDurationMs).toBe(oracleMean(rows.map((_, i) => 1000 * (i + 1))));
        expect(relativeError(s.profitFactor, loss === 0 ? null : gain / loss)).toBeLessThan(1e-9);
        const sqn = std < 1e-9 ? null : (Math.sqrt(pl.length) * oracleMean(pl)) / std;
        expect(relativeError(s.sqn, sqn)).toBeLessThan(1e-9);
        const kelly =
          wins.length === 0 || losses.length === 0
            ? null
            : winRate - (1 - winRate) / (oracleMean(wins) / -oracleMean(losses));
        expect(relativeError(s.kelly, kelly)).toBeLessThan(1e-9);
      }),
    );
  });

  it('one trade: every figure is that trade, and no SQN (pandas std of one value is NaN), profit factor or Kelly', () => {
    const s = tradeStats([aRoundTripTrade(5, 0.05, 60_000)]);
    expect([s.tradeCount, s.winRate, s.bestTrade, s.worstTrade, s.expectancy]).toEqual([
      1, 1, 0.05, 0.05, 0.05,
    ]);
    expect(s.avgTrade).toBeCloseTo(0.05, 15);
    expect([s.maxTradeDurationMs, s.avgTradeDurationMs]).toEqual([60_000, 60_000]);
    expect([s.sqn, s.profitFactor, s.kelly]).toEqual([null, null, null]);
  });

  it('all winners: SQN sqrt(2) x 4 / std(5, 3) = sqrt(2) x 4 / sqrt(2) = 4', () => {
    expect(tradeStats([aRoundTripTrade(5, 0.05, 1), aRoundTripTrade(3, 0.03, 1)]).sqn).toBeCloseTo(4, 12);
  });
});
