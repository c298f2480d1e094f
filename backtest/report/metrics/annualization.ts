import { asNumber } from '../../../core/model/index.ts';
import type { EquitySample } from '../equity-sample.ts';
import { calendarDayClock, type TradingHours, tradingClock, tradingDayMs } from './trading-time.ts';

/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;

/**
 * Calendar year used for CAGR: 365 days (Keel's choice; QuantStats' current `cagr` counts years
 * as return observations / periods per year instead).
 */
export const YEAR_MS = 365 * DAY_MS;

/**
 * How period returns are taken and annualized (Keel's choice, configurable):
 * - `tradingDaysPerYear`: 365 for crypto (trades every day, the default), 252 for equities (the
 *   runner picks by instrument; backtesting.py guesses from its bars instead: 365 when more than
 *   0.6 x 2/7 of them fall on a weekend, else 252).
 * - `period`: `'auto'` takes daily returns (last equity of each UTC day, as backtesting.py does;
 *   of each New York day for US equities, so Friday's after-hours past midnight UTC are no
 *   Saturday; a sample at exactly midnight ends the day before, as a bar stamped at its close
 *   then closes that day, where backtesting.py stamps bars at their open) when the curve lasts at least 3 days and has samples on at least 3 such days (a 27-hour run
 *   across two midnights is short, its days partial); a shorter run lasting at least a day takes
 *   per-sample returns; a run shorter than a day is not annualized at all (a Sharpe ratio
 *   extrapolated from minutes to a year says nothing). `'day'` forces daily returns, `'sample'`
 *   forces per-sample returns whatever the span. A day without a sample is no period.
 * - Per-sample returns are taken on a regular grid of `sampleStepMs` (default one minute) of
 *   trading time, its intervals whole multiples of the step from the origin, as the equity
 *   sampler's buckets are: the equity of each interval is its last sample (with the runner's
 *   step, its bucket width, that is the bucket's close, never its low or high); an interval
 *   without a sample repeats the previous equity (a market open without a move). Trading time is
 *   the time the market is open (`tradingHours`): all of it for crypto, so the grid is epoch
 *   time; for US equities only the regular session, so nights, weekends (and moves then, which
 *   count in the next session's first interval) are no periods of their own (the equity sampler's
 *   buckets are whole steps of epoch time, so they line up with the session's intervals when the
 *   step divides 30 min, as the runner's steps for runs of 1-3 days do; a wider step may end an
 *   interval on a bucket's low or high). The curve itself is
 *   not regular (it keeps each bucket's low, high and close), so its own gaps cannot serve as
 *   periods. A span of more than a million steps is gridded at the smallest whole multiple of the
 *   step that keeps it to a million, and a given `periodsPerYear` is divided by that multiple.
 * - Either way the first period runs from the starting equity (the first sample) to the end of
 *   its day or grid interval, so its P&L counts (backtesting.py starts from the first day's last
 *   equity instead, dropping it), and the last period ends at the last sample: the first and
 *   last periods may be partial.
 * - `periodsPerYear`: overrides the derived figure. Derived: tradingDaysPerYear for daily
 *   returns; tradingDaysPerYear x (the trading day / sampleStepMs) for per-sample returns, the
 *   trading day being 24 h for crypto and the 6.5 h session for US equities (252 x 390 for a
 *   one-minute step), as the grid counts trading time only.
 * - `tradingHours`: `24/7` (the default) or `us-equity` ({@link TradingHours}); the runner takes
 *   `us-equity` when every instrument is a US equity.
 * - `riskFreeRate`: annual risk-free rate for Sharpe and Sortino (fraction, default 0).
 */
export interface AnnualizationBasis {
  readonly tradingDaysPerYear: number;
  readonly period: 'auto' | 'day' | 'sample';
  readonly periodsPerYear?: number;
  /** Grid step of per-sample returns, ms of trading time; default {@link DEFAULT_SAMPLE_STEP_MS}. */
  readonly sampleStepMs?: number;
  /** The hours the market trades, for the per-sample grid; `24/7` when omitted. */
  readonly tradingHours?: TradingHours;
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

/** US equity defaults: 252 trading days of the regular session, automatic period, risk-free rate 0. */
export const EQUITY_ANNUALIZATION: AnnualizationBasis = {
  tradingDaysPerYear: 252,
  period: 'auto',
  tradingHours: 'us-equity',
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
  /**
   * Time of the first period equity at or below zero, absent while equity stays positive: the
   * returns stop there, the return into it counting as -1 (a total loss), since a return off a
   * zero or negative equity means nothing.
   */
  readonly ruinTs?: number;
}

/**
 * Takes the period returns of an equity curve on the basis given.
 * @param curve - equity samples in time order
 * @param basis - annualization basis
 * @returns the returns, which period was used, and periods per year
 */
export function periodReturns(curve: readonly EquitySample[], basis: AnnualizationBasis): PeriodReturns {
  const first = curve[0];
  const last = curve[curve.length - 1];
  const span = first === undefined || last === undefined ? 0 : last.ts - first.ts;
  const hours = basis.tradingHours ?? '24/7';
  const dayOf = dayOfClock(calendarDayClock(hours));
  const daily = span >= 3 * DAY_MS && daysOf(curve, dayOf) >= 3;
  const period = basis.period === 'auto' ? (daily ? 'day' : 'sample') : basis.period;
  if (basis.period === 'auto' && period === 'sample' && span < DAY_MS)
    return { returns: [], period, periodsPerYear: null };
  const asked = basis.sampleStepMs ?? DEFAULT_SAMPLE_STEP_MS;
  if (!(asked > 0)) throw new RangeError(`annualization: sampleStepMs must be positive, got ${asked}`);
  const clock = tradingClock(hours);
  const tradingSpan = first === undefined || last === undefined ? 0 : clock(last.ts) - clock(first.ts);
  // A span of more than MAX_GRID_POINTS steps is gridded at a whole multiple of the step.
  const step = asked * Math.max(1, Math.ceil(tradingSpan / asked / MAX_GRID_POINTS));
  const series =
    period === 'day'
      ? lastOfEachInterval(curve, dayOf, false)
      : lastOfEachInterval(curve, (ts) => Math.floor(clock(ts) / step), true);
  const returns: number[] = [];
  let ruinTs: number | undefined;
  for (const [i, point] of series.entries()) {
    const previous = series[i - 1];
    if (point.equity <= 0) {
      ruinTs = point.ts;
      if (previous !== undefined) returns.push(-1);
      break;
    }
    if (previous !== undefined) returns.push(point.equity / previous.equity - 1);
  }
  const ruin = ruinTs === undefined ? {} : { ruinTs };
  if (returns.length === 0) return { returns, period, periodsPerYear: null, ...ruin };
  const periodsPerYear =
    period === 'day'
      ? (basis.periodsPerYear ?? basis.tradingDaysPerYear)
      : basis.periodsPerYear === undefined
        ? (basis.tradingDaysPerYear * tradingDayMs(hours)) / step
        : (basis.periodsPerYear * asked) / step;
  return { returns, period, periodsPerYear, ...ruin };
}

/** The equity ending a period, and the time of the sample it was read from. */
interface PeriodEquity {
  readonly ts: number;
  readonly equity: number;
}

/**
 * The day a time ends or falls in, as a whole number of days of `dayClock`: a time at exactly
 * midnight is the end of the day before (the equity then is that day's last: a bar stamped at its
 * close at midnight closes the day before), so a run from midnight to midnight 3 days later has 3
 * daily periods, not a fourth of no length.
 */
function dayOfClock(dayClock: (ts: number) => number): (ts: number) => number {
  return (ts) => Math.ceil(dayClock(ts) / DAY_MS) - 1;
}

/** How many days (of `dayOf`) hold a sample. */
function daysOf(curve: readonly EquitySample[], dayOf: (ts: number) => number): number {
  let days = 0;
  let day = Number.NaN;
  for (const sample of curve) {
    const d = dayOf(sample.ts);
    if (d !== day) days++;
    day = d;
  }
  return days;
}

/**
 * The starting equity, then the last equity of each interval (`intervalOf` a time: its day, or
 * its whole step of trading time, as the equity sampler's buckets are). The starting equity
 * is the base of the first period, which runs to the end of its interval, so that interval's
 * change counts; when the start is alone in its interval it is that interval's last equity, not
 * a period of its own. An interval without a sample repeats the previous equity when `fill`
 * (a regular grid), else it is skipped (a day without data is no period).
 */
function lastOfEachInterval(
  curve: readonly EquitySample[],
  intervalOf: (ts: number) => number,
  fill: boolean,
): PeriodEquity[] {
  const first = curve[0];
  if (first === undefined) return [];
  const out: PeriodEquity[] = [pointOf(first)];
  let key = intervalOf(first.ts);
  // The last sample of the interval being read, made a point once the interval ends: a later
  // sample of the same interval replaces it, so most samples (a day holds hundreds) are never
  // turned into numbers. Undefined while the start is alone in its interval.
  let last: EquitySample | undefined;
  for (let i = 1; i < curve.length; i++) {
    const sample = curve[i] as EquitySample;
    const k = intervalOf(sample.ts);
    if (k === key && last !== undefined) last = sample;
    else {
      if (last !== undefined) out.push(pointOf(last));
      const previous = out[out.length - 1] as PeriodEquity;
      if (fill) for (let gap = key + 1; gap < k; gap++) out.push(previous);
      last = sample;
    }
    key = k;
  }
  if (last !== undefined) out.push(pointOf(last));
  return out;
}

/** A sample's equity as a number, with its time. */
function pointOf(sample: EquitySample): PeriodEquity {
  return { ts: sample.ts, equity: asNumber(sample.equity) };
}
