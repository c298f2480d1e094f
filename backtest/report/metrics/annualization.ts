import type { EquitySample } from '../equity-sample.ts';

/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;

/** Calendar year used for CAGR: 365 days (QuantStats' `cagr` default). */
export const YEAR_MS = 365 * DAY_MS;

/**
 * How period returns are taken and annualized (Keel's choice, configurable):
 * - `tradingDaysPerYear`: 365 for crypto (trades every day, the default), 252 for equities.
 * - `period`: `'auto'` takes daily returns (last equity of each UTC day, as backtesting.py does)
 *   when the curve spans at least 3 UTC days, and otherwise returns between consecutive samples;
 *   `'day'` forces daily returns, `'sample'` forces per-sample returns.
 * - `periodsPerYear`: overrides the derived figure. Derived: tradingDaysPerYear for daily
 *   returns; tradingDaysPerYear x (1 day / median sampling interval, lower median) for per-sample returns,
 *   which assumes trading round the clock: for intraday equities pass it (e.g. 252 x 390 for
 *   one-minute bars of a 6.5 h session).
 * - `riskFreeRate`: annual risk-free rate for Sharpe (fraction, default 0).
 */
export interface AnnualizationBasis {
  readonly tradingDaysPerYear: number;
  readonly period: 'auto' | 'day' | 'sample';
  readonly periodsPerYear?: number;
  readonly riskFreeRate: number;
}

/** Crypto defaults: 365 trading days, automatic period, risk-free rate 0. */
export const CRYPTO_ANNUALIZATION: AnnualizationBasis = {
  tradingDaysPerYear: 365,
  period: 'auto',
  riskFreeRate: 0,
};

/** Equity defaults: 252 trading days, automatic period, risk-free rate 0. */
export const EQUITY_ANNUALIZATION: AnnualizationBasis = {
  tradingDaysPerYear: 252,
  period: 'auto',
  riskFreeRate: 0,
};

/** Period returns of an equity curve and the annualization figures they were taken with. */
export interface PeriodReturns {
  /** Simple returns e[i] / e[i-1] - 1 of the resampled curve. */
  readonly returns: readonly number[];
  /** `'day'` or `'sample'`: which sampling was used. */
  readonly period: 'day' | 'sample';
  /** Periods per year used to annualize (null when there are no returns to annualize). */
  readonly periodsPerYear: number | null;
}

/**
 * Takes the period returns of an equity curve on the basis given.
 * @param curve - equity samples in time order
 * @param basis - annualization basis
 * @returns the returns, which period was used, and periods per year
 */
export function periodReturns(curve: readonly EquitySample[], basis: AnnualizationBasis): PeriodReturns {
  const values = curve.map((s) => s.equity.toNumber());
  const days = lastOfEachUtcDay(curve);
  const period = basis.period === 'auto' ? (days.length >= 3 ? 'day' : 'sample') : basis.period;
  const series = period === 'day' ? days : values;
  const returns: number[] = [];
  for (let i = 1; i < series.length; i++) {
    const prev = series[i - 1] as number;
    returns.push(prev === 0 ? 0 : (series[i] as number) / prev - 1);
  }
  if (returns.length === 0) return { returns, period, periodsPerYear: null };
  const periodsPerYear =
    basis.periodsPerYear ??
    (period === 'day' ? basis.tradingDaysPerYear : samplingPeriodsPerYear(curve, basis.tradingDaysPerYear));
  return { returns, period, periodsPerYear };
}

function lastOfEachUtcDay(curve: readonly EquitySample[]): number[] {
  const out: number[] = [];
  let day = Number.NaN;
  for (const sample of curve) {
    const d = Math.floor(sample.ts / DAY_MS);
    if (d === day) out[out.length - 1] = sample.equity.toNumber();
    else out.push(sample.equity.toNumber());
    day = d;
  }
  return out;
}

function samplingPeriodsPerYear(curve: readonly EquitySample[], tradingDaysPerYear: number): number | null {
  const gaps: number[] = [];
  for (let i = 1; i < curve.length; i++) {
    gaps.push((curve[i] as EquitySample).ts - (curve[i - 1] as EquitySample).ts);
  }
  gaps.sort((a, b) => a - b);
  const median = gaps[Math.floor((gaps.length - 1) / 2)];
  return median === undefined || median <= 0 ? null : (tradingDaysPerYear * DAY_MS) / median;
}
