import { DateTime } from 'luxon';
import { US_EQUITY_ZONE } from '../model/index.ts';

/** Options of the US equity session helpers. */
export interface UsEquitySessionOptions {
  /**
   * Exchange holidays as `YYYY-MM-DD` New York dates. Keel's choice: Keel ships no holiday
   * calendar (it changes every year), so the caller supplies one; without it only weekends close.
   */
  readonly holidays?: ReadonlySet<string>;
  /** Count pre-market (04:00-09:30) and after-hours (16:00-20:00) as open, like `extendedTrading`. */
  readonly extended?: boolean;
}

const REGULAR_OPEN_MIN = 9 * 60 + 30;
const REGULAR_CLOSE_MIN = 16 * 60;
const EXTENDED_OPEN_MIN = 4 * 60;
const EXTENDED_CLOSE_MIN = 20 * 60;

/**
 * Whether the US equity session is open at a time: weekdays 09:30-16:00 New York time (DST
 * handled by luxon), optionally with extended hours, closed on the given holidays.
 * @param ts - epoch ms
 * @param options - holidays and extended hours
 * @returns true when the session is open at `ts`
 * @example
 * isUsEquitySessionOpen(Date.parse('2026-03-09T14:00:00Z')); // true: 10:00 EDT on a Monday
 * isUsEquitySessionOpen(Date.parse('2026-03-07T15:00:00Z')); // false: Saturday
 */
export function isUsEquitySessionOpen(ts: number, options: UsEquitySessionOptions = {}): boolean {
  const local = DateTime.fromMillis(ts, { zone: US_EQUITY_ZONE });
  if (local.weekday > 5) return false;
  if (options.holidays?.has(local.toISODate() ?? '') === true) return false;
  const minute = local.hour * 60 + local.minute;
  const open = options.extended === true ? EXTENDED_OPEN_MIN : REGULAR_OPEN_MIN;
  const close = options.extended === true ? EXTENDED_CLOSE_MIN : REGULAR_CLOSE_MIN;
  return minute >= open && minute < close;
}

/**
 * The next regular session open at or after a time (09:30 New York on the next trading day).
 * @param ts - epoch ms
 * @param options - holidays (extended hours are ignored: this is the regular open)
 * @returns epoch ms of the next 09:30 open; `ts` itself's day when before 09:30 on a trading day
 * @throws RangeError when no trading day comes within 30 days (a holiday list closing a month)
 */
export function nextUsEquitySessionOpen(ts: number, options: UsEquitySessionOptions = {}): number {
  return nextOnTradingDay(ts, REGULAR_OPEN_MIN, false, options, 'open');
}

/**
 * The regular session close a US equity DAY order placed at a time lives until: 16:00 New York on
 * that trading day, or on the next trading day when placed at or after the close (or on a
 * weekend or holiday), as brokers queue such orders for the next session. With `extended`, the
 * extended session's 20:00 close found the same way.
 * @param ts - epoch ms
 * @param options - holidays; `extended` asks for the extended session's 20:00 close instead
 * @returns epoch ms of that 16:00 (or 20:00) close, always after `ts`
 * @throws RangeError when no trading day comes within 30 days
 */
export function nextUsEquitySessionClose(ts: number, options: UsEquitySessionOptions = {}): number {
  const close = options.extended === true ? EXTENDED_CLOSE_MIN : REGULAR_CLOSE_MIN;
  return nextOnTradingDay(ts, close, true, options, 'close');
}

function nextOnTradingDay(
  ts: number,
  minuteOfDay: number,
  strictlyAfter: boolean,
  options: UsEquitySessionOptions,
  what: string,
): number {
  let day = DateTime.fromMillis(ts, { zone: US_EQUITY_ZONE }).startOf('day');
  for (let i = 0; i < 30; i++) {
    const at = day.set({ hour: Math.floor(minuteOfDay / 60), minute: minuteOfDay % 60 }).toMillis();
    const tradingDay = day.weekday <= 5 && options.holidays?.has(day.toISODate() ?? '') !== true;
    if (tradingDay && (strictlyAfter ? at > ts : at >= ts)) return at;
    day = day.plus({ days: 1 });
  }
  throw new RangeError(
    `no US equity session ${what} within 30 days after ${DateTime.fromMillis(ts, { zone: 'utc' }).toISO()}`,
  );
}

/**
 * Formats a time as a New York wall-clock string, for a strategy's own logs or labels (orders
 * write PLACE_ORDER's `timeToSend` through the model's `formatTimeToSend`).
 * @param ts - epoch ms
 * @param format - a luxon format (default `yyyy-MM-dd HH:mm:ss`)
 * @returns the formatted New York local time
 */
export function formatNewYorkTime(ts: number, format = 'yyyy-MM-dd HH:mm:ss'): string {
  return DateTime.fromMillis(ts, { zone: US_EQUITY_ZONE }).toFormat(format);
}
