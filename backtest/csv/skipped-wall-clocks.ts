import type { DateTime, Zone } from 'luxon';
import { readBarTime, type TimeParsing } from './bar-time.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The most a zone's clocks go forward at once (Antarctica/Troll's two hours). */
const LONGEST_SKIP_MS = 2 * HOUR_MS;

/**
 * Finds the times a file writes without an offset that its zone's clocks never show: the wall
 * clocks skipped when they go forward (02:30 on the night daylight saving starts in Berlin).
 * luxon reads such a time as the one the skip moves it to (03:30): a bar taken for the next
 * hour's, then a duplicate or a step back in time. Only a time the zone's offset changed less
 * than two hours before is read again to tell; the offset before is kept for an
 * hour of times, so the rows of a file cost no more look-ups than the hours they span.
 */
export class SkippedWallClocks {
  private hour = Number.NaN;
  private offsetBefore = 0;

  /**
   * Why a date-time text names no time of its zone, when it does not.
   * @param text - the time text
   * @param time - its reading in the zone ({@link readBarTime})
   * @param parsing - how the file's times are read
   * @returns the sentence saying so, or undefined when the time exists (as does a date alone or
   *   a midnight: its day starts when the clocks show it first)
   */
  reason(text: string, time: DateTime, parsing: TimeParsing): string | undefined {
    const zone = time.zone;
    if (zone.isUniversal) return undefined;
    const ms = time.toMillis();
    const hour = Math.floor((ms - LONGEST_SKIP_MS) / HOUR_MS);
    if (hour !== this.hour) {
      this.hour = hour;
      this.offsetBefore = zone.offset(hour * HOUR_MS);
    }
    if (this.offsetBefore === time.offset) return undefined;
    const written = wallClockWritten(text, parsing);
    const read = ms + time.offset * MINUTE_MS;
    if (written === undefined || written === read || written % DAY_MS === 0) return undefined;
    const change = clocksForward(zone, ms - (read - written), ms);
    return `time ${JSON.stringify(text)} does not exist in ${parsing.zone}: its clocks go forward from ${wallClock(change.from)} to ${wallClock(change.to).replace(wallClock(change.from).slice(0, 11), '')}; if the file's times are in another zone, pass it with --zone (zone in a CSV entry)`;
  }
}

/**
 * The wall clock a date-time text writes, as epoch ms of that clock in UTC: the text read in two
 * fixed offsets, whose instants differ unless the text writes its own.
 * @returns the wall clock, or undefined when the text writes an offset
 */
function wallClockWritten(text: string, parsing: TimeParsing): number | undefined {
  const plusOne = readBarTime(text, parsing, 'UTC+1');
  const plusTwo = readBarTime(text, parsing, 'UTC+2');
  if (plusOne === null || plusTwo === null || typeof plusOne === 'number' || typeof plusTwo === 'number')
    return undefined;
  const instant = plusOne.toMillis();
  return instant === plusTwo.toMillis() ? undefined : instant + HOUR_MS;
}

/**
 * The clocks going forward between two instants, as the wall clocks before and after.
 * @param zone - the zone
 * @param before - an instant before the change
 * @param after - an instant after it
 * @returns the wall clocks the change goes from and to, as epoch ms of those clocks in UTC
 */
function clocksForward(zone: Zone, before: number, after: number): { from: number; to: number } {
  const offsetBefore = zone.offset(before);
  let lo = before;
  let hi = after;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (zone.offset(mid) === offsetBefore) lo = mid;
    else hi = mid;
  }
  return { from: hi + offsetBefore * MINUTE_MS, to: hi + zone.offset(hi) * MINUTE_MS };
}

/** `2024-03-31 02:00`: a wall clock given as epoch ms of that clock in UTC. */
function wallClock(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}
