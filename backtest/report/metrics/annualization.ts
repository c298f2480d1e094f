import { asNumber } from '../../../core/model/index.ts';
import type { EquitySample } from '../equity-sample.ts';

/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;

/** Calendar year used for CAGR: 365 days (QuantStats' `cagr` default). */
export const YEAR_MS = 365 * DAY_MS;

/**
 * How period returns are taken and annualized (Keel's choice, configurable):
 * - `tradingDaysPerYear`: 365 for crypto (trades every day, the default), 252 for equities.
 * - `period`: `'auto'` takes daily returns (last equity of each UTC day, as backtesting.py does)
 *   when the curve spans at least 3 UTC days; a shorter run spanning at least one day takes
 *   per-sample returns; a run shorter than a day is not annualized at all (a Sharpe ratio
 *   extrapolated from minutes to a year says nothing). `'day'` forces daily returns, `'sample'`
 *   forces per-sample returns whatever the span.
 * - Per-sample returns are taken on a regular grid of `sampleStepMs` (default one minute): the
 *   equity at each grid time is the last sample at or before it. The curve itself is not regular
 *   (it keeps each bucket's low, high and close), so its own gaps cannot serve as periods. A span
 *   of more than a million steps is gridded at the smallest whole multiple of the step that
 *   keeps it to a million, and a given `periodsPerYear` is divided by that multiple.
 * - `periodsPerYear`: overrides the derived figure. Derived: tradingDaysPerYear for daily
 *   returns; tradingDaysPerYear x (1 day / sampleStepMs) for per-sample returns, which assumes
 *   trading round the clock: for intraday equities pass it (e.g. 252 x 390 for a one-minute step
 *   over a 6.5 h session).
 * - `riskFreeRate`: annual risk-free rate for Sharpe (fraction, default 0).
 */
export interface AnnualizationBasis {
  readonly tradingDaysPerYear: number;
  readonly period: 'auto' | 'day' | 'sample';
  readonly periodsPerYear?: number;
  /** Grid step of per-sample returns, ms; default {@link DEFAULT_SAMPLE_STEP_MS}. */
  readonly sampleStepMs?: number;
  readonly riskFreeRate: number;
}

/** What the report says when a run's returns are not annualized. */
export const NOT_ANNUALIZED =
  'not annualized: the run is shorter than a day or has a single sample (annualization period "sample" forces it)';

/**
 * Most points of the per-sample grid (Keel's choice): over a longer span the step is widened to a
 * whole multiple, so a curve whose first sample is decades early costs a bounded array.
 */
const MAX_GRID_POINTS = 1_000_000;

/** Default grid step of per-sample returns: one minute. */
export const DEFAULT_SAMPLE_STEP_MS = 60_000;

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
  const days = lastOfEachUtcDay(curve);
  const period = basis.period === 'auto' ? (days.length >= 3 ? 'day' : 'sample') : basis.period;
  const first = curve[0];
  const last = curve[curve.length - 1];
  const span = first === undefined || last === undefined ? 0 : last.ts - first.ts;
  if (basis.period === 'auto' && period === 'sample' && span < DAY_MS)
    return { returns: [], period, periodsPerYear: null };
  const asked = basis.sampleStepMs ?? DEFAULT_SAMPLE_STEP_MS;
  if (!(asked > 0)) throw new RangeError(`annualization: sampleStepMs must be positive, got ${asked}`);
  // A span of more than MAX_GRID_POINTS steps is gridded at a whole multiple of the step.
  const step = asked * Math.max(1, Math.ceil(span / asked / MAX_GRID_POINTS));
  const series = period === 'day' ? days : onRegularGrid(curve, step);
  const returns: number[] = [];
  for (let i = 1; i < series.length; i++) {
    const prev = series[i - 1] as number;
    returns.push(prev === 0 ? 0 : (series[i] as number) / prev - 1);
  }
  if (returns.length === 0) return { returns, period, periodsPerYear: null };
  const periodsPerYear =
    period === 'day'
      ? (basis.periodsPerYear ?? basis.tradingDaysPerYear)
      : basis.periodsPerYear === undefined
        ? (basis.tradingDaysPerYear * DAY_MS) / step
        : (basis.periodsPerYear * asked) / step;
  return { returns, period, periodsPerYear };
}

function lastOfEachUtcDay(curve: readonly EquitySample[]): number[] {
  const out: number[] = [];
  let day = Number.NaN;
  for (const sample of curve) {
    const d = Math.floor(sample.ts / DAY_MS);
    if (d === day) out[out.length - 1] = asNumber(sample.equity);
    else out.push(asNumber(sample.equity));
    day = d;
  }
  return out;
}

/** The equity at the first sample's time and every `step` after it: the last sample at or before each. */
function onRegularGrid(curve: readonly EquitySample[], step: number): number[] {
  const first = curve[0];
  if (first === undefined) return [];
  const out: number[] = [];
  let i = 0;
  const end = (curve[curve.length - 1] as EquitySample).ts;
  for (let t = first.ts; t <= end; t += step) {
    while (i + 1 < curve.length && (curve[i + 1] as EquitySample).ts <= t) i++;
    out.push(asNumber((curve[i] as EquitySample).equity));
  }
  return out;
}
