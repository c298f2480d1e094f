import { earlierOccurrence, laterOccurrence } from './clock-changes.ts';
import type { RawBar, SkippedRow } from './ohlcv-bar.ts';

/**
 * The bars oldest first (a newest-first file is reversed, see {@link isNewestFirst}). A row that
 * repeats the bar before it exactly is dropped (and listed); the repeated hour when daylight saving ends, written twice
 * without an offset, is read as its two occurrences, for bars of any interval
 * ({@link placeInRepeatedHour}); any other bar at the same time, or a time going back, is a problem
 * (`reject` throws, or skips it under --skip-invalid).
 * @param raw - the bars in file order
 * @param reject - reports a bar that cannot be placed (throws, or records it as skipped)
 * @param skipped - where exact copies are listed
 * @param zone - the IANA zone times without an offset were read in
 * @returns the bars oldest first
 */
export function orderBars(
  raw: readonly RawBar[],
  reject: (line: number, reason: string) => void,
  skipped: SkippedRow[],
  zone: string,
): RawBar[] {
  const ordered = isNewestFirst(raw) ? [...raw].reverse() : raw;
  const kept: RawBar[] = [];
  for (const cur of ordered) {
    const prev = kept[kept.length - 1];
    if (prev === undefined || cur.ts > prev.ts) {
      kept.push(cur);
      continue;
    }
    if (cur.ts === prev.ts && sameValues(cur, prev)) {
      skipped.push({ line: cur.bar.line, reason: `an exact copy of line ${prev.bar.line}` });
      continue;
    }
    const placed = placeInRepeatedHour(kept, cur, zone);
    if (placed !== undefined) {
      kept.push(placed);
      continue;
    }
    reject(
      cur.bar.line,
      cur.ts === prev.ts
        ? `duplicate bar time with other prices (same as line ${prev.bar.line})`
        : `bar time goes back in time from line ${prev.bar.line}; sort the file`,
    );
  }
  return kept;
}

/**
 * Whether the file runs newest first: more of its steps go back in time than forward. Not every
 * step need go back: across the repeated hour when daylight saving ends, read at one of its
 * occurrences, a newest-first file steps forward once (from the second occurrence's start to the
 * first occurrence's end), and a stray row out of order is reported, not taken for the direction.
 * A file stepping forward and back equally often is read as oldest first.
 * @param raw - the bars in file order
 * @returns true when the bars are to be reversed
 */
function isNewestFirst(raw: readonly RawBar[]): boolean {
  let back = 0;
  let forward = 0;
  for (let i = 1; i < raw.length; i++) {
    const step = (raw[i] as RawBar).ts - (raw[i - 1] as RawBar).ts;
    if (step < 0) back++;
    else if (step > 0) forward++;
  }
  return back > forward;
}

/**
 * Places the repeated hour when daylight saving ends. Its times, written without an offset, are
 * all read at one of their two occurrences, so the second occurrence steps back in time from the
 * first by less than the clock change (to the same time for hourly bars, 45 minutes for 15m bars).
 * When `cur` so steps back into the repeated hour: read at its first occurrence (Sydney), it moves
 * to its second; read at its second (Europe, the Americas), the run of that hour's bars just kept
 * is its first occurrence and moves to its earlier times, when it still comes after the bar
 * before it.
 * @param kept - the bars placed so far, oldest first (the run is moved in place)
 * @param cur - a bar whose time is not after the last kept one's
 * @param zone - the IANA zone times without an offset were read in
 * @returns `cur` as it follows the kept bars, or undefined when the step back is no repeated hour
 */
function placeInRepeatedHour(kept: RawBar[], cur: RawBar, zone: string): RawBar | undefined {
  const prev = kept[kept.length - 1];
  if (prev === undefined) return undefined;
  const later = laterOccurrence(cur.ts, zone);
  if (later !== undefined)
    return later > prev.ts && isRepeated(prev.ts, zone) ? { ...cur, ts: later } : undefined;
  const earlier = earlierOccurrence(cur.ts, zone);
  if (earlier === undefined) return undefined;
  const shift = cur.ts - earlier;
  if (prev.ts - cur.ts >= shift) return undefined;
  let start = kept.length;
  while (start > 0) {
    const ts = (kept[start - 1] as RawBar).ts;
    if (earlierOccurrence(ts, zone) !== ts - shift) break;
    start--;
  }
  if (start === kept.length) return undefined;
  const before = kept[start - 1];
  if (before !== undefined && (kept[start] as RawBar).ts - shift <= before.ts) return undefined;
  for (let i = start; i < kept.length; i++) {
    const bar = kept[i] as RawBar;
    kept[i] = { ...bar, ts: bar.ts - shift };
  }
  return cur;
}

/** Whether an instant's wall clock happens twice in the zone. */
function isRepeated(ms: number, zone: string): boolean {
  return earlierOccurrence(ms, zone) !== undefined || laterOccurrence(ms, zone) !== undefined;
}

function sameValues(a: RawBar, b: RawBar): boolean {
  return (
    a.bar.open === b.bar.open &&
    a.bar.high === b.bar.high &&
    a.bar.low === b.bar.low &&
    a.bar.close === b.bar.close &&
    a.bar.volume === b.bar.volume
  );
}
