import { DateTime } from 'luxon';
import { US_EQUITY_ZONE } from '../../../core/model/index.ts';

/**
 * The hours a run's market trades, for the grid of per-sample returns: `24/7` (crypto: every hour
 * of every day) or `us-equity` (the regular US equity session, weekdays 09:30-16:00 New York time,
 * as core/kernel's `isUsEquitySessionOpen` has it; Keel ships no holiday calendar, so a weekday
 * holiday counts as a session without a move).
 */
export type TradingHours = '24/7' | 'us-equity';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const US_SESSION_MS = 390 * MINUTE_MS;

/**
 * How long a trading day of a market is open.
 * @param hours - the market's trading hours
 * @returns 24 h for `24/7`, 6.5 h for `us-equity`
 */
export function tradingDayMs(hours: TradingHours): number {
  return hours === 'us-equity' ? US_SESSION_MS : DAY_MS;
}

/**
 * A clock of trading time: epoch ms to the milliseconds the market was open since a fixed origin,
 * so a grid on it steps through open hours only and nights and weekends take no time. For `24/7`
 * it is the epoch time itself. For `us-equity` a time outside the session reads as the next open
 * (the close of a day and the next day's open are the same instant of trading time), so a move
 * outside the session counts in the first interval of the next one.
 * @param hours - the market's trading hours
 * @returns the clock (pure; it remembers the last New York day it looked up)
 */
export function tradingClock(hours: TradingHours): (ts: number) => number {
  if (hours === '24/7') return (ts) => ts;
  let dayStart = Number.NaN;
  let dayEnd = Number.NaN;
  let openAt = 0;
  let before = 0;
  let weekday = false;
  return (ts) => {
    if (!(ts >= dayStart && ts < dayEnd)) {
      const day = DateTime.fromMillis(ts, { zone: US_EQUITY_ZONE }).startOf('day');
      dayStart = day.toMillis();
      dayEnd = day.plus({ days: 1 }).toMillis();
      // Wall-clock 09:30, so the open stays right on the days the clocks change.
      openAt = day.set({ hour: 9, minute: 30 }).toMillis();
      // Civil day number of the New York date; 1970-01-05 (day 4) was a Monday.
      const civil = Math.round(Date.UTC(day.year, day.month - 1, day.day) / DAY_MS);
      before = weekdaysBefore(civil - 4) * US_SESSION_MS;
      weekday = day.weekday <= 5;
    }
    if (!weekday) return before;
    return before + Math.min(Math.max(ts - openAt, 0), US_SESSION_MS);
  };
}

/**
 * A clock whose whole days are the market's calendar days: epoch ms for `24/7` (UTC days); for
 * `us-equity` the New York date's UTC midnight plus the share of that New York day gone (a 23- or
 * 25-hour day stretched onto 24 h), so a day runs from New York midnight to midnight and Friday's
 * after-hours (past midnight UTC) stay on Friday.
 * @param hours - the market's trading hours
 * @returns the clock (pure; it remembers the last New York day it looked up)
 */
export function calendarDayClock(hours: TradingHours): (ts: number) => number {
  if (hours === '24/7') return (ts) => ts;
  let dayStart = Number.NaN;
  let dayEnd = Number.NaN;
  let civilStart = 0;
  return (ts) => {
    if (!(ts >= dayStart && ts < dayEnd)) {
      const day = DateTime.fromMillis(ts, { zone: US_EQUITY_ZONE }).startOf('day');
      dayStart = day.toMillis();
      dayEnd = day.plus({ days: 1 }).toMillis();
      civilStart = Date.UTC(day.year, day.month - 1, day.day);
    }
    // A 23- or 25-hour day (the clocks change) is stretched onto 24 h, so it stays one day.
    return civilStart + Math.floor(((ts - dayStart) * DAY_MS) / (dayEnd - dayStart));
  };
}

/** Weekdays among the `n` days from a Monday (negative `n` counts back). */
function weekdaysBefore(n: number): number {
  const weeks = Math.floor(n / 7);
  return weeks * 5 + Math.min(n - weeks * 7, 5);
}
