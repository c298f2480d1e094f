import { earlierOccurrence } from './bar-time.ts';
import type { RawBar, SkippedRow } from './ohlcv-bar.ts';

/**
 * The bars oldest first (a newest-first file is reversed). A row that repeats the bar before it
 * exactly is dropped (and listed); the repeated hour when daylight saving ends, written twice
 * without an offset, is read as its two occurrences; any other bar at the same time, or a time
 * going back, is a problem (`reject` throws, or skips it under --skip-invalid).
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
  const descending =
    raw.some((r, i) => i > 0 && r.ts < (raw[i - 1] as RawBar).ts) &&
    raw.every((r, i) => i === 0 || r.ts <= (raw[i - 1] as RawBar).ts);
  const ordered = descending ? [...raw].reverse() : raw;
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
    // The hour daylight saving repeats: read at the later offset both times, the first is the earlier.
    const earlier = cur.ts === prev.ts ? earlierOccurrence(prev.ts, zone) : undefined;
    const beforePrev = kept[kept.length - 2];
    if (earlier !== undefined && (beforePrev === undefined || earlier > beforePrev.ts)) {
      kept[kept.length - 1] = { ...prev, ts: earlier };
      kept.push(cur);
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

function sameValues(a: RawBar, b: RawBar): boolean {
  return (
    a.bar.open === b.bar.open &&
    a.bar.high === b.bar.high &&
    a.bar.low === b.bar.low &&
    a.bar.close === b.bar.close &&
    a.bar.volume === b.bar.volume
  );
}
