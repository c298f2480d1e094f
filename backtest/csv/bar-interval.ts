import { BAR_INTERVAL_MS, type BarInterval } from '../../core/model/index.ts';
import { clocksForwardBetween } from './clock-changes.ts';
import { CsvImportError } from './csv-import-error.ts';
import type { RawBar } from './ohlcv-bar.ts';

const HOUR_MS = 3_600_000;

/** Slack for daily bars in a zone with daylight saving: a day can be 23 hours long. */
const DST_SLACK_MS = 3_600_000;

/** Keel's intervals, shortest first. */
const KEEL_INTERVAL_LIST = Object.keys(BAR_INTERVAL_MS) as BarInterval[];
/** Keel's intervals as a list for messages: `1m, 5m, 15m, 1h, 4h, 1d`. */
const KEEL_INTERVALS = KEEL_INTERVAL_LIST.join(', ');

/** A bar that starts inside the one before it, were the bars of some interval. */
interface Overlap {
  readonly line: number;
  readonly prevLine: number;
  readonly gap: number;
}

/**
 * The gaps between consecutive bars, tallied as the bars come oldest first: how often each gap
 * occurs (a handful of gaps in any real file), and for each of Keel's intervals the first bar that
 * would start inside the one before it (see {@link refuseOverlaps}).
 */
export class BarGaps {
  /** How many bars were added. */
  bars = 0;
  private readonly counts = new Map<number, number>();
  private readonly overlaps = new Map<BarInterval, Overlap>();
  private readonly zone: string;
  private last: RawBar | undefined;

  /** @param zone - the IANA zone times without an offset were read in */
  constructor(zone: string) {
    this.zone = zone;
  }

  /**
   * Tallies the next bar.
   * @param cur - the bar, after the ones added so far
   */
  add(cur: RawBar): void {
    const prev = this.last;
    this.last = cur;
    this.bars++;
    if (prev === undefined) return;
    const gap = cur.ts - prev.ts;
    this.counts.set(gap, (this.counts.get(gap) ?? 0) + 1);
    let forward: number | undefined;
    for (const interval of KEEL_INTERVAL_LIST) {
      if (this.overlaps.has(interval)) continue;
      const ms = BAR_INTERVAL_MS[interval];
      const least = ms >= BAR_INTERVAL_MS['1d'] ? ms - DST_SLACK_MS : ms;
      if (gap >= least) continue;
      if (ms >= HOUR_MS) {
        forward ??= clocksForwardBetween(prev.ts, cur.ts, this.zone);
        if (gap >= ms - forward) continue;
      }
      this.overlaps.set(interval, { line: cur.bar.line, prevLine: prev.bar.line, gap });
    }
  }

  /** The most common gap, the smallest on a tie. */
  mostCommon(): number {
    let best = 0;
    let bestCount = 0;
    for (const [gap, count] of this.counts) {
      if (count > bestCount || (count === bestCount && gap < best)) {
        best = gap;
        bestCount = count;
      }
    }
    return best;
  }

  /** Whether two consecutive bars are exactly `ms` apart. */
  has(ms: number): boolean {
    return this.counts.has(ms);
  }

  /** The first bar that starts inside the one before it, were the bars of `interval`. */
  overlapOf(interval: BarInterval): Overlap | undefined {
    return this.overlaps.get(interval);
  }
}

/**
 * Refuses a bar that starts inside the one before it: bars closer together than the interval
 * (5m data imported as 1h) or a row off the file's grid. Daily bars may be an hour short (DST);
 * bars of an hour or more may be short by as much as the clocks of the zone went forward between
 * them (4h bars written in local time hold 3 hours on the night daylight saving starts).
 * @param gaps - the gaps between the bars, oldest first
 * @param interval - the bar interval, given or detected
 * @param file - file name for the error
 * @throws CsvImportError at the first bar that starts inside the one before it
 */
export function refuseOverlaps(gaps: BarGaps, interval: BarInterval, file: string): void {
  const overlap = gaps.overlapOf(interval);
  if (overlap === undefined) return;
  throw new CsvImportError(
    file,
    overlap.line,
    `bar starts ${overlap.gap} ms after the bar on line ${overlap.prevLine}, inside that ${interval} bar: the rows are not ${interval} bars (pass the right --interval) or this row is off the file's grid`,
  );
}

/**
 * The bar interval: the most common gap between consecutive bars (the smallest on a tie), which
 * must be one of Keel's intervals. Weekend and holiday gaps in daily or intraday files do not
 * disturb it.
 * @param gaps - the gaps between the bars, oldest first
 * @param file - file name for the error
 * @returns the interval the bars are mostly apart
 * @throws CsvImportError when there is one bar, or the common gap is none of Keel's intervals
 */
export function detectInterval(gaps: BarGaps, file: string): BarInterval {
  if (gaps.bars < 2) {
    throw new CsvImportError(file, 0, 'one bar is not enough to tell the interval; pass --interval');
  }
  const gap = gaps.mostCommon();
  const interval = intervalOf(gap);
  if (interval === undefined) {
    throw new CsvImportError(
      file,
      0,
      `bars are mostly ${spacing(gap)} apart (${gap} ms), which is none of Keel's intervals (${KEEL_INTERVALS}): resample the file to one of them first`,
    );
  }
  return interval;
}

/**
 * Refuses bars mostly a multiple of the interval given apart (weekly bars passed as `1d`, 30m bars
 * as `15m`): read as bars of the shorter interval, each would show its high, low and close when
 * the first of its shorter bars closes, long before they were known. Gaps of weekends and holidays
 * do not count: the most common gap decides. Bars that are one interval apart anywhere in the file
 * are taken as sparse bars of that interval (a thinly traded pair's 1m bars, mostly minutes apart),
 * not coarser ones.
 * @param gaps - the gaps between the bars, oldest first
 * @param interval - the interval given
 * @param file - file name for the error
 * @throws CsvImportError naming the bars' real spacing and what to do
 */
export function refuseCoarserBars(gaps: BarGaps, interval: BarInterval, file: string): void {
  if (gaps.bars < 2) return;
  const ms = BAR_INTERVAL_MS[interval];
  const gap = gaps.mostCommon();
  if (gap <= ms || gap % ms !== 0 || gaps.has(ms)) return;
  const fits = intervalOf(gap);
  throw new CsvImportError(
    file,
    0,
    `bars are mostly ${spacing(gap)} apart (${gap} ms), ${gap / ms} times the ${interval} interval given: read as ${interval} bars, each would show the high, low and close of ${spacing(gap)}, ${spacing(gap - ms)} early; ${fits === undefined ? `resample the file to one of Keel's intervals (${KEEL_INTERVALS}) first` : `pass --interval ${fits}`}`,
  );
}

/**
 * Keel's interval of exactly `ms`, if any.
 * @param ms - a gap between bars
 * @returns the interval, or undefined when the gap is none of Keel's
 */
export function intervalOf(ms: number): BarInterval | undefined {
  return KEEL_INTERVAL_LIST.find((k) => BAR_INTERVAL_MS[k] === ms);
}

const SPACING_UNITS: readonly (readonly [number, string])[] = [
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'minute'],
  [1_000, 'second'],
];

/**
 * A gap in words, in the largest unit it is a whole number of: `7 days`, `30 minutes`, `1500 ms`.
 * @param ms - the gap
 * @returns the words
 */
export function spacing(ms: number): string {
  const unit = SPACING_UNITS.find(([size]) => ms % size === 0);
  if (unit === undefined) return `${ms} ms`;
  const n = ms / unit[0];
  return `${n} ${unit[1]}${n === 1 ? '' : 's'}`;
}
