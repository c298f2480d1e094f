/** Regular trading hours as minutes of the UTC day, weekdays only. */
export interface TradingHoursUtc {
  /** Minute of the UTC day the session opens, e.g. 870 for 14:30. */
  readonly openMinute: number;
  /** Minute of the UTC day the session closes (exclusive), e.g. 1260 for 21:00. */
  readonly closeMinute: number;
}

/**
 * US equities' regular session in winter (09:30-16:00 New York = 14:30-21:00 UTC). The synthetic
 * generator ignores daylight saving time and holidays.
 */
export const US_REGULAR_HOURS_WINTER: TradingHoursUtc = { openMinute: 870, closeMinute: 1260 };

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * Whether a time falls inside the trading hours.
 * @param hours - the session hours
 * @param ts - epoch ms
 * @returns true on a weekday between open (inclusive) and close (exclusive)
 */
export function isWithinHours(hours: TradingHoursUtc, ts: number): boolean {
  const day = Math.floor(ts / DAY);
  // 1970-01-01 was a Thursday: (day + 4) % 7 is 0 on Sundays.
  const weekday = (day + 4) % 7;
  if (weekday === 0 || weekday === 6) return false;
  const minute = Math.floor((ts - day * DAY) / MINUTE);
  return minute >= hours.openMinute && minute < hours.closeMinute;
}

/**
 * The next opening at or after a time.
 * @param hours - the session hours
 * @param ts - epoch ms
 * @returns `ts` itself when inside the hours, else the next weekday open, epoch ms
 */
export function nextOpen(hours: TradingHoursUtc, ts: number): number {
  if (isWithinHours(hours, ts)) return ts;
  let day = Math.floor(ts / DAY);
  for (let i = 0; i < 8; i++, day++) {
    const open = day * DAY + hours.openMinute * MINUTE;
    if (open >= ts && isWithinHours(hours, open)) return open;
  }
  throw new Error(`trading hours ${hours.openMinute}-${hours.closeMinute} never open after ${ts}`);
}
