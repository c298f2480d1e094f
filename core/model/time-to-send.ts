import { DateTime } from 'luxon';
import { US_EQUITY_ZONE } from './us-equity-zone.ts';

/**
 * The zone of PLACE_ORDER's `timeToSend`. The spec shows none; the message is the US equities one
 * (`exchangeCode` US), so Keel reads the wall-clock time as the US market's, New York time with
 * its daylight saving (Keel's choice; GTD expiry dates of US equities are New York dates too).
 */
export const TIME_TO_SEND_ZONE = US_EQUITY_ZONE;

/** The spec's `timeToSend` format. */
export const TIME_TO_SEND_FORMAT = 'yyyy-MM-dd HH:mm:ss';

const TIME_TO_SEND = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * Writes a moment as the spec's `timeToSend`, New York wall-clock time. The field has whole
 * seconds: a moment between two is written as the later one, so the order is never sent early.
 * @param ts - epoch ms
 * @param zone - the IANA zone to write in (default {@link TIME_TO_SEND_ZONE})
 * @returns `yyyy-MM-dd HH:mm:ss`, e.g. `2025-01-06 09:33:30` for 14:33:30Z (and for 14:33:29.001Z)
 */
export function formatTimeToSend(ts: number, zone: string = TIME_TO_SEND_ZONE): string {
  return DateTime.fromMillis(Math.ceil(ts / 1000) * 1000, { zone }).toFormat(TIME_TO_SEND_FORMAT);
}

/**
 * Reads the spec's `timeToSend` as New York wall-clock time, daylight saving included. A time the
 * clocks skip (02:30 on the spring-forward day) is taken an hour later, as it would be read after
 * the change; a time they repeat (01:30 on the fall-back day) is its second occurrence, in
 * standard time, so an order is never sent early (luxon's rule; Keel's choice: the text carries no
 * offset, so a moment in the first 01:xx hour of that day comes back an hour later).
 * @param text - the field, `yyyy-MM-dd HH:mm:ss`
 * @param zone - the IANA zone to read in (default {@link TIME_TO_SEND_ZONE})
 * @returns epoch ms, NaN when malformed or not a calendar time
 */
export function parseTimeToSend(text: string, zone: string = TIME_TO_SEND_ZONE): number {
  if (!TIME_TO_SEND.test(text)) return Number.NaN;
  const time = DateTime.fromFormat(text, TIME_TO_SEND_FORMAT, { zone });
  return time.isValid ? time.toMillis() : Number.NaN;
}
