import { DateTime, Info } from 'luxon';

const MINUTE_MS = 60_000;
/** How far back a clock change is looked for: changes are months apart, ambiguity lasts an hour or two. */
const DAY_MS = 86_400_000;
const WALL_CLOCK = 'yyyy-MM-dd HH:mm:ss.SSS';

/** The zone's offset from UTC at an instant, ms (0 for a zone luxon does not know). */
function offsetAt(ms: number, zone: string): number {
  const z = Info.normalizeZone(zone);
  return z.isValid ? z.offset(ms) * MINUTE_MS : 0;
}

/**
 * The first occurrence of a wall-clock time that happens twice in a zone (the repeated hour when
 * daylight saving ends), given its second: the clock change's shift (an hour in most zones, 30
 * minutes on Lord Howe Island) before it, with the same wall clock.
 * @param ms - an instant, epoch ms
 * @param zone - the IANA zone
 * @returns the epoch milliseconds of the earlier occurrence of its wall clock, or undefined when
 *   `ms` is no second occurrence of a repeated wall clock
 */
export function earlierOccurrence(ms: number, zone: string): number | undefined {
  const shift = offsetAt(ms - DAY_MS, zone) - offsetAt(ms, zone);
  return shift > 0 && sameWallClock(ms, ms - shift, zone) ? ms - shift : undefined;
}

/**
 * The second occurrence of a wall-clock time that happens twice in a zone, given its first (see
 * {@link earlierOccurrence}). Which one luxon reads a time without offset as depends on the zone:
 * the later in Europe and the Americas, the earlier in Sydney or on Lord Howe Island.
 * @param ms - an instant, epoch ms
 * @param zone - the IANA zone
 * @returns the epoch milliseconds of the later occurrence of its wall clock, or undefined when
 *   `ms` is no first occurrence of a repeated wall clock
 */
export function laterOccurrence(ms: number, zone: string): number | undefined {
  const shift = offsetAt(ms, zone) - offsetAt(ms + DAY_MS, zone);
  return shift > 0 && sameWallClock(ms, ms + shift, zone) ? ms + shift : undefined;
}

function sameWallClock(a: number, b: number, zone: string): boolean {
  return (
    DateTime.fromMillis(a, { zone }).toFormat(WALL_CLOCK) ===
    DateTime.fromMillis(b, { zone }).toFormat(WALL_CLOCK)
  );
}

/**
 * How far the clocks went forward between two instants (daylight saving starting), so local
 * bars on either side are that much closer in UTC time than their interval.
 * @param from - the earlier instant, epoch ms
 * @param to - the later instant, epoch ms
 * @param zone - the IANA zone the bars' times were written in
 * @returns the shift in ms, 0 when the offset did not grow
 */
export function clocksForwardBetween(from: number, to: number, zone: string): number {
  return Math.max(0, offsetAt(to, zone) - offsetAt(from, zone));
}
