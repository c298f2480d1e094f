import { earlierOccurrence, laterOccurrence } from './clock-changes.ts';
import { placeOnNeighboursGrid } from './lone-repeated-time.ts';
import type { RawBar, SkippedRow } from './ohlcv-bar.ts';

const DAY_MS = 86_400_000;
/**
 * How far behind the latest bar a kept bar is still held: the repeated hour's run that
 * {@link placeInRepeatedHour} moves lies hours, not days, behind it, so a bar two days behind
 * (with one before it, the run's predecessor) can no longer move and is passed on.
 */
const HELD_MS = 2 * DAY_MS;
/** Bars passed on together, so the held ones are moved down rarely. */
const PASSED_AT_ONCE = 256;

/**
 * Puts bars, given oldest first, in order as they come, holding only the last two days of them: a
 * row that repeats the bar before it exactly is dropped (and listed), unless it is the repeated
 * hour's second bar ({@link aloneInItsOccurrence}); the repeated hour when
 * daylight saving ends, written twice without an offset, is read as its two occurrences, for bars
 * of any interval ({@link placeInRepeatedHour}), and a bar the file holds at one of them only is
 * put on the grid of the bars around it as it is passed on ({@link placeOnNeighboursGrid}); any
 * other bar at the same time, or a time going back, is a problem (`reject` throws, or skips it
 * under --skip-invalid). A newest-first file is given to it from its end ({@link StepDirections}
 * tells which).
 */
export class BarOrdering {
  private readonly kept: RawBar[] = [];
  /** The last two bars passed on, oldest first: the ones before the next bar to pass on. */
  private readonly passed: RawBar[] = [];
  private readonly reject: (line: number, reason: string) => void;
  private readonly skipped: SkippedRow[];
  private readonly zone: string;
  private readonly settled: (bar: RawBar) => void;

  /**
   * @param reject - reports a bar that cannot be placed (throws, or records it as skipped)
   * @param skipped - where exact copies are listed
   * @param zone - the IANA zone times without an offset were read in
   * @param settled - receives each bar, in order, once it can no longer move
   */
  constructor(
    reject: (line: number, reason: string) => void,
    skipped: SkippedRow[],
    zone: string,
    settled: (bar: RawBar) => void,
  ) {
    this.reject = reject;
    this.skipped = skipped;
    this.zone = zone;
    this.settled = settled;
  }

  /**
   * Places the next bar.
   * @param cur - the bar, in the order the bars run oldest first
   */
  add(cur: RawBar): void {
    const kept = this.kept;
    const prev = kept[kept.length - 1];
    if (prev === undefined || cur.ts > prev.ts) {
      kept.push(cur);
      this.pass();
      return;
    }
    const copy = cur.ts === prev.ts && sameValues(cur, prev);
    // A bar as long as the clock change repeats its bar exactly when nothing traded in the
    // repeated hour (a flat bar, no volume): its two occurrences, not a copy.
    const placed =
      !copy || aloneInItsOccurrence(kept, this.zone) ? placeInRepeatedHour(kept, cur, this.zone) : undefined;
    if (copy && placed === undefined) {
      this.skipped.push({ line: cur.bar.line, reason: `an exact copy of line ${prev.bar.line}` });
      return;
    }
    if (placed !== undefined) {
      kept.push(placed);
      this.pass();
      return;
    }
    this.reject(
      cur.bar.line,
      cur.ts === prev.ts
        ? `duplicate bar time with other prices (same as line ${prev.bar.line})`
        : `bar time goes back in time from line ${prev.bar.line}; sort the file`,
    );
  }

  /** Passes on the bars still held, after the last one is added. */
  end(): void {
    for (let i = 0; i < this.kept.length; i++) this.passOn(i);
    this.kept.length = 0;
  }

  /** Passes on the bars that can no longer move, a batch at a time. */
  private pass(): void {
    const kept = this.kept;
    const latest = (kept[kept.length - 1] as RawBar).ts;
    // Checked at the batch's end first, so a bar added costs no scan of the held ones.
    if (kept.length <= PASSED_AT_ONCE + 1 || (kept[PASSED_AT_ONCE + 1] as RawBar).ts >= latest - HELD_MS)
      return;
    let done = PASSED_AT_ONCE + 1;
    while (done + 1 < kept.length && (kept[done + 1] as RawBar).ts < latest - HELD_MS) done++;
    for (let i = 0; i < done; i++) this.passOn(i);
    kept.splice(0, done);
  }

  /** Passes on a held bar, placed on the grid of the two bars passed on before it and the two held after it. */
  private passOn(index: number): void {
    const kept = this.kept;
    const passed = this.passed;
    const bar = placeOnNeighboursGrid(
      kept[index] as RawBar,
      {
        beforePrev: passed[passed.length - 2],
        prev: passed[passed.length - 1],
        next: kept[index + 1],
        afterNext: kept[index + 2],
      },
      this.zone,
    );
    passed.push(bar);
    if (passed.length > 2) passed.shift();
    this.settled(bar);
  }
}

/**
 * Whether a file runs newest first: more of its steps go back in time than forward. Not every
 * step need go back: across the repeated hour when daylight saving ends, read at one of its
 * occurrences, a newest-first file steps forward once (from the second occurrence's start to the
 * first occurrence's end), and a stray row out of order is reported, not taken for the direction.
 * A file stepping forward and back equally often is read as oldest first.
 */
export class StepDirections {
  private back = 0;
  private forward = 0;
  private last: number | undefined;

  /**
   * Counts the step to the next bar in file order.
   * @param ts - its time
   */
  add(ts: number): void {
    if (this.last !== undefined) {
      if (ts < this.last) this.back++;
      else if (ts > this.last) this.forward++;
    }
    this.last = ts;
  }

  /** @returns true when the bars are to be read from the file's end */
  newestFirst(): boolean {
    return this.back > this.forward;
  }
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

/**
 * Whether the last kept bar, at a wall clock the zone repeats, is the only bar of that wall clock's
 * occurrence: at least the clock change's shift after the bar before it, as an hourly bar is (a
 * 30-minute one on Lord Howe Island). Then a row repeating it exactly is the next occurrence's bar;
 * a finer bar repeated inside the hour stays a copy.
 */
function aloneInItsOccurrence(kept: readonly RawBar[], zone: string): boolean {
  const prev = kept[kept.length - 1] as RawBar;
  const earlier = earlierOccurrence(prev.ts, zone);
  const later = earlier === undefined ? laterOccurrence(prev.ts, zone) : undefined;
  const shift = earlier !== undefined ? prev.ts - earlier : later !== undefined ? later - prev.ts : undefined;
  if (shift === undefined) return false;
  const before = kept[kept.length - 2];
  return before === undefined || prev.ts - before.ts >= shift;
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
