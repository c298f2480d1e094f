import { describe, expect, it } from 'vitest';
import {
  annualizedReturn,
  annualizedVolatility,
  buyAndHoldReturn,
  CRYPTO_ANNUALIZATION,
  cagr,
  calmarRatio,
  computeMetrics,
  EQUITY_ANNUALIZATION,
  periodReturns,
  sharpeRatio,
  sortinoRatio,
  statsRows,
  totalReturn,
  YEAR_MS,
} from '../../../../backtest/report/index.ts';
import { D } from '../../../../core/model/index.ts';
import { equityCurveOf } from '../../../kit/equity-curve-builders.ts';

const DAY = 86_400_000;

// Daily returns +10 %, -10 %, +10 %: mean 1/30, std (ddof 1) = sqrt(0.04/3) = 0.115470...
const RETURNS = [0.1, -0.1, 0.1];

describe('return metrics', () => {
  it('total return is final / start - 1, not defined from a start of 0', () => {
    expect(totalReturn(100, 120)).toBeCloseTo(0.2, 12);
    // 5 / 0 - 1 is not a number: null, not the 0 it used to be (nothing was not gained).
    expect(totalReturn(0, 5)).toBeNull();
    expect(
      computeMetrics({ equityCurve: equityCurveOf([0, 5]), trades: [], fills: [] }).totalReturn,
    ).toBeNull();
  });

  it('buy & hold compares the last benchmark price with the first', () => {
    expect(
      buyAndHoldReturn([
        { ts: 0, price: 50 },
        { ts: 1, price: 40 },
        { ts: 2, price: 60 },
      ]),
    ).toBeCloseTo(0.2, 12);
    expect(buyAndHoldReturn([{ ts: 0, price: 50 }])).toBeNull();
    expect(buyAndHoldReturn([])).toBeNull();
  });

  it('CAGR compounds over 365-day calendar years', () => {
    expect(cagr(100, 121, YEAR_MS)).toBeCloseTo(0.21, 12);
    expect(cagr(100, 121, 2 * YEAR_MS)).toBeCloseTo(0.1, 12);
    expect(cagr(100, 121, 0)).toBeNull();
    expect(cagr(0, 121, YEAR_MS)).toBeNull();
  });

  it('annualized return compounds the geometric mean period return over P periods', () => {
    // gmean = (1.1 x 0.9 x 1.1)^(1/3) - 1 = 0.0288276478; (1 + gmean)^2 - 1 = 1.089^(2/3) - 1
    expect(annualizedReturn(RETURNS, 2)).toBeCloseTo(1.089 ** (2 / 3) - 1, 12);
    expect(annualizedReturn(RETURNS, 2)).toBeCloseTo(0.058486, 6);
    expect(annualizedReturn([], 365)).toBeNull();
  });

  it('annualized volatility is std (ddof 1) x sqrt(P)', () => {
    expect(annualizedVolatility(RETURNS, 365)).toBeCloseTo(2.206052281, 8);
    expect(annualizedVolatility([0.1], 365)).toBeNull();
  });

  it('Sharpe is mean / std x sqrt(P), less the risk-free rate per period', () => {
    expect(sharpeRatio(RETURNS, 365)).toBeCloseTo(5.515130703, 8);
    // rf 3.65 % a year = 0.0001 a day: (1/30 - 0.0001) / 0.1154700538 x sqrt(365)
    expect(sharpeRatio(RETURNS, 365, 0.0365)).toBeCloseTo(5.498585311, 8);
    expect(sharpeRatio([0.01, 0.01], 365)).toBeNull();
  });

  it('Sortino divides by the downside deviation over all periods', () => {
    // downside = sqrt(0.01 / 3) = 0.0577350; (1/30) / 0.0577350 x sqrt(365) = 11.0302614
    expect(sortinoRatio(RETURNS, 365)).toBeCloseTo(11.030261406, 8);
    expect(sortinoRatio([0.1, 0.2], 365)).toBeNull();
  });

  it('Sortino subtracts the risk-free rate per period from every return, as QuantStats does', () => {
    // rf 3.65 % a year = 0.0001 a day: excess returns 0.0999, -0.1001, 0.0999; mean 0.0997 / 3,
    // downside sqrt(0.1001^2 / 3) = 0.1001 / sqrt(3); (0.0997 / 3) / (0.1001 / sqrt(3)) x sqrt(365)
    // = 10.98616... (11.03026 without rf).
    const expected = (0.0997 / 3 / (0.1001 / Math.sqrt(3))) * Math.sqrt(365);
    expect(sortinoRatio(RETURNS, 365, 0.0365)).toBeCloseTo(expected, 10);
    expect(expected).toBeCloseTo(10.986, 3);
    // A gain below the risk-free rate is a shortfall: 0.00005 a day against 0.0001 has no upside.
    expect(sortinoRatio([0.00005, 0.00005], 365, 0.0365)).toBeCloseTo(-Math.sqrt(365), 10);
    const curve = equityCurveOf([100, 110, 99, 108.9]);
    const withRf = computeMetrics({
      equityCurve: curve,
      trades: [],
      fills: [],
      annualization: { ...CRYPTO_ANNUALIZATION, riskFreeRate: 0.0365 },
    });
    expect(withRf.sortino).toBeCloseTo(expected, 8);
    const row = statsRows(withRf).find((r) => r.label === 'Sortino Ratio');
    expect(row?.definition).toContain('rf = 3.65 %');
  });

  it('treats a spread that is only float noise as zero: no Sharpe or Sortino, volatility 0', () => {
    // Equity 100 x 1.01^k for k = 0..5: every daily return is 0.01, but the floats give
    // 0.010000000000000009, ..., 0.009999999999999787: std 1.6e-16, so Sharpe was 1.2e15.
    const curve = equityCurveOf([0, 1, 2, 3, 4, 5].map((k) => 100 * 1.01 ** k));
    const m = computeMetrics({ equityCurve: curve, trades: [], fills: [] });
    expect(m.sharpe).toBeNull();
    expect(m.annualizedVolatility).toBe(0);
    expect(m.annualizedReturn).toBeCloseTo(1.01 ** 365 - 1, 8);
    // A loss of 1e-17 next to gains of 1 % and 2 % is rounding, not downside: Sortino was 3.6e15.
    expect(sortinoRatio([0.01, 0.02, -1e-17], 365)).toBeNull();
    // A real, small spread still counts: std 1e-9 around 0.01.
    const small = sharpeRatio([0.01 - 1e-9, 0.01 + 1e-9], 365) ?? 0;
    expect(small / ((0.01 / Math.SQRT2 / 1e-9) * Math.sqrt(365))).toBeCloseTo(1, 5);
  });

  it('Calmar is CAGR over max drawdown', () => {
    expect(calmarRatio(0.3, 0.1)).toBeCloseTo(3, 12);
    expect(calmarRatio(0.3, 0)).toBeNull();
    expect(calmarRatio(null, 0.1)).toBeNull();
  });
});

describe('annualization basis', () => {
  it('takes daily returns (last equity per UTC day) when the curve lasts three days or more', () => {
    // 0h, 12h, ... 72h: three days, each ending at its midnight (24h, 48h, 72h)
    const hourly = equityCurveOf([100, 105, 110, 104, 99, 102, 108.9], 12 * 3_600_000);
    const r = periodReturns(hourly, CRYPTO_ANNUALIZATION);
    expect(r.period).toBe('day');
    expect(r.periodsPerYear).toBe(365);
    // From the start, 100, days end 110, 99, 108.9: +10 %, -10 %, +10 % (no fourth day of no length).
    expect(r.returns.map((x) => Number(x.toFixed(12)))).toEqual([0.1, -0.1, 0.1]);
    // 48 hours over three UTC dates are not three days: per-sample returns.
    expect(periodReturns(hourly.slice(0, 5), CRYPTO_ANNUALIZATION).period).toBe('sample');
  });

  it("bases the first daily return on the starting equity, so the first day's P&L counts", () => {
    // 12-hourly 100, 200, 200, ... to 96 h: day 0 goes 100 -> 200, days 1-3 stay at 200.
    // Daily series 100 (start), 200, 200, 200, 200: returns 1, 0, 0, 0 (the old series began at
    // day 0's last equity, 200, and gave 0, 0, 0: no return, no Sharpe).
    const curve = equityCurveOf([100, 200, 200, 200, 200, 200, 200, 200, 200], 12 * 3_600_000);
    const r = periodReturns(curve, CRYPTO_ANNUALIZATION);
    expect(r.period).toBe('day');
    expect(r.returns).toEqual([1, 0, 0, 0]);
    const m = computeMetrics({ equityCurve: curve, trades: [], fills: [] });
    // gmean = 2^(1/4) - 1, so (1 + gmean)^365 - 1 = 2^91.25 - 1
    expect((m.annualizedReturn ?? 0) / (2 ** 91.25 - 1)).toBeCloseTo(1, 10);
    // mean 0.25; std (ddof 1) = sqrt((0.75^2 + 3 x 0.25^2) / 3) = 0.5; 0.25 / 0.5 x sqrt(365)
    expect(m.sharpe).toBeCloseTo(0.5 * Math.sqrt(365), 10);
  });

  it('uses 252 periods per year for equities', () => {
    expect(periodReturns(equityCurveOf([1, 2, 3, 4]), EQUITY_ANNUALIZATION).periodsPerYear).toBe(252);
  });

  it('takes per-sample returns on a regular grid when the run spans a day but fewer than 3 UTC days', () => {
    const hourly = equityCurveOf(
      [
        100, 110, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
        108.9,
      ],
      3_600_000,
    );
    const r = periodReturns(hourly, { ...CRYPTO_ANNUALIZATION, sampleStepMs: 3_600_000 });
    expect(r.period).toBe('sample');
    expect(r.periodsPerYear).toBe(365 * 24);
    expect(r.returns.length).toBe(24);
    expect(r.returns.map((x) => Number(x.toFixed(12))).filter((x) => x !== 0)).toEqual([0.1, -0.1, 0.1]);
  });

  it('annualizes per-sample returns by the grid step, not by the gaps of the curve, which keeps lows and highs milliseconds apart', () => {
    // Each minute's bucket keeps its low, high and close a few ms apart, the close at the
    // bucket's last millisecond as the sampler keeps it: the old median-gap rule took 10 ms as
    // the period and annualized by 3.15 billion periods a year. The run starts alone in the
    // minute before the first bucket.
    const day = Date.UTC(2024, 0, 1, 1);
    const curve = [{ ts: day - 1, equity: D(100_010) }];
    for (let minute = 1; minute <= 1_440; minute++) {
      const ts = day + minute * 60_000 - 1;
      const equity = 100_000 + (minute % 2 === 0 ? 10 : -10);
      curve.push(
        { ts: ts - 20, equity: D(equity - 50) },
        { ts: ts - 10, equity: D(equity + 50) },
        { ts, equity: D(equity) },
      );
    }
    const r = periodReturns(curve, CRYPTO_ANNUALIZATION);
    expect(r.period).toBe('sample');
    expect(r.periodsPerYear).toBe(365 * 1_440);
    expect(r.returns.length).toBe(1_440);
    // Grid times fall on the closes: each return is between two closes, +-20 on 100 000.
    for (const x of r.returns) expect(Math.abs(Math.abs(x) - 20 / 100_000)).toBeLessThan(1e-6);
  });

  it("steps per-sample returns from close to close of the sampler's buckets, never through a bucket's low or high", () => {
    // The run starts 30 s into minute 0; minutes 1 and 2 each keep a low, a high and a close at
    // their last event, as the sampler does. Grid on whole minutes: 1000 (start), 1001, 1000, so
    // returns 1001 / 1000 - 1 = 0.001 and 1000 / 1001 - 1 = -0.000999001. The old grid, from the
    // start every 60 s (30 s, 90 s, 150 s), read the highs 1010 and 1020 instead.
    const t = Date.UTC(2024, 0, 1);
    const at = (s: number, equity: number) => ({ ts: t + s * 1000, equity: D(equity) });
    const curve = [
      at(30, 1000),
      at(70, 990),
      at(80, 1010),
      at(119, 1001),
      at(130, 980),
      at(140, 1020),
      at(179, 1000),
    ];
    const r = periodReturns(curve, { ...CRYPTO_ANNUALIZATION, period: 'sample', sampleStepMs: 60_000 });
    expect(r.returns).toHaveLength(2);
    expect(r.returns[0]).toBeCloseTo(0.001, 15);
    expect(r.returns[1]).toBeCloseTo(1000 / 1001 - 1, 15);
  });

  it('does not annualize a run shorter than a day unless the period is forced', () => {
    const minutes = equityCurveOf([100, 101, 100.5, 102], 60_000);
    expect(periodReturns(minutes, CRYPTO_ANNUALIZATION)).toEqual({
      returns: [],
      period: 'sample',
      periodsPerYear: null,
    });
    const forced = periodReturns(minutes, { ...CRYPTO_ANNUALIZATION, period: 'sample' });
    expect(forced.periodsPerYear).toBe(365 * 1_440);
    expect(forced.returns.length).toBe(3);
    expect(cagr(100, 102, 3 * 60_000)).toBeNull();
  });

  it('lets the user fix the period and the periods per year', () => {
    const curve = equityCurveOf([100, 110, 99, 120], 60_000);
    const r = periodReturns(curve, { ...EQUITY_ANNUALIZATION, period: 'sample', periodsPerYear: 252 * 390 });
    expect(r.periodsPerYear).toBe(98_280);
  });

  it('grids a curve whose first sample is decades early at a wider step, in bounded memory', () => {
    // A session whose clock read 0 before its first event gave such a curve: 56 years in minutes.
    const now = Date.UTC(2026, 10, 21);
    const curve = [
      { ts: 0, equity: D(100_000) },
      { ts: now, equity: D(100_000) },
      { ts: now + 60_000, equity: D(100_100) },
    ];
    const r = periodReturns(curve, { ...CRYPTO_ANNUALIZATION, period: 'sample' });
    const multiple = Math.ceil((now + 60_000) / 60_000 / 1_000_000);
    expect(r.returns.length).toBeLessThanOrEqual(1_000_000);
    expect(r.periodsPerYear).toBe((365 * 1_440) / multiple);
    const fixed = periodReturns(curve, {
      ...CRYPTO_ANNUALIZATION,
      period: 'sample',
      periodsPerYear: 525_600,
    });
    expect(fixed.periodsPerYear).toBe(525_600 / multiple);
  });

  it('stops the returns where equity reaches zero: a total loss, after which no ratio is defined', () => {
    // Daily 100, 50, 0, 0: returns -0.5, then 0 / 50 - 1 = -1, and nothing after (the old
    // series went on with a 0 return off 0 equity and gave Sharpe -19.1, annualized return null).
    const toZero = equityCurveOf([100, 50, 0, 0]);
    const r = periodReturns(toZero, CRYPTO_ANNUALIZATION);
    expect(r.returns).toEqual([-0.5, -1]);
    expect(r.ruinTs).toBe(2 * DAY);
    const m = computeMetrics({ equityCurve: toZero, trades: [], fills: [] });
    expect(m.annualizedReturn).toBe(-1);
    expect([m.annualizedVolatility, m.sharpe, m.sortino]).toEqual([null, null, null]);
    expect([m.cagr, m.calmar]).toEqual([-1, -1]);
    expect(m.annualization.ruinTs).toBe(2 * DAY);
  });

  it('counts equity below zero as a total loss too: no ratio off a negative equity', () => {
    // Daily 100, -50, -100, -10: -50 / 100 - 1 = -1.5 means nothing; the old returns -1.5, 1,
    // -0.9 gave Sharpe -6.83. Now one return, -1, and the annualized return is -1.
    const negative = equityCurveOf([100, -50, -100, -10]);
    expect(periodReturns(negative, CRYPTO_ANNUALIZATION).returns).toEqual([-1]);
    const m = computeMetrics({ equityCurve: negative, trades: [], fills: [] });
    expect(m.annualizedReturn).toBe(-1);
    expect([m.annualizedVolatility, m.sharpe, m.sortino]).toEqual([null, null, null]);
    expect(m.annualization.ruinTs).toBe(DAY);
    // Standing alone, the ratios refuse a return of -1 or below as well.
    expect(sharpeRatio([0.1, -1, 0.2], 365)).toBeNull();
    expect(sortinoRatio([0.1, -1, 0.2], 365)).toBeNull();
    expect(annualizedVolatility([0.1, -1.5], 365)).toBeNull();
    expect(annualizedReturn([0.1, -1], 365)).toBe(-1);
  });

  it('has no ruin time while equity stays positive', () => {
    expect(periodReturns(equityCurveOf([100, 1, 100, 120]), CRYPTO_ANNUALIZATION).ruinTs).toBeUndefined();
    expect(
      computeMetrics({ equityCurve: equityCurveOf([100, 1]), trades: [], fills: [] }).annualization,
    ).not.toHaveProperty('ruinTs');
  });

  it('has no returns and no periods per year for a single sample', () => {
    expect(periodReturns(equityCurveOf([100]), CRYPTO_ANNUALIZATION)).toEqual({
      returns: [],
      period: 'sample',
      periodsPerYear: null,
    });
  });
});
