import { BAR_INTERVAL_MS, type BarInterval } from '../../core/model/index.ts';
import { type BarGaps, intervalOf, spacing } from './bar-interval.ts';
import type { EpochUnit } from './bar-time.ts';
import { CsvImportError } from './csv-import-error.ts';

/** Each epoch unit as a power of ten of nanoseconds. */
const NANOSECOND_DIGITS: Readonly<Record<Exclude<EpochUnit, 'auto'>, number>> = { s: 9, ms: 6, us: 3, ns: 0 };
const UNIT_WORDS: Readonly<Record<Exclude<EpochUnit, 'auto'>, string>> = {
  s: 'seconds',
  ms: 'milliseconds',
  us: 'microseconds',
  ns: 'nanoseconds',
};
/** Bar times taken as plausible, from 1971 (a unit too small puts 2024 in January 1970) to 2100. */
const PLAUSIBLE_START_MS = Date.UTC(1971, 0, 1);
const PLAUSIBLE_END_MS = Date.UTC(2100, 0, 1);
const YEAR_MS = 31_556_952_000;

/** The first and last bar times as read, epoch ms. */
export interface BarSpan {
  readonly first: number;
  readonly last: number;
}

/**
 * Refuses bars read in the wrong epoch unit (`--epoch-unit s` for a file of epoch milliseconds, or
 * the other way round): their most common gap fits neither the interval given nor any of Keel's
 * and they fall outside 1971 to 2100, while read in another unit the gap is one of Keel's intervals
 * and the bars fall inside. Without this, the gaps (1000 minutes, 60 ms) were refused as bars to
 * resample or not of the interval given.
 * @param gaps - the gaps between the bars, oldest first
 * @param span - the first and last bar times as read
 * @param unit - the epoch unit given (`auto` reads each number by its magnitude, and is not checked)
 * @param interval - the interval given, if any
 * @param file - file name for the error
 * @throws CsvImportError naming the unit the times fit
 */
export function refuseWrongEpochUnit(
  gaps: BarGaps,
  span: BarSpan,
  unit: EpochUnit,
  interval: BarInterval | undefined,
  file: string,
): void {
  if (unit === 'auto' || gaps.bars < 2) return;
  const gap = gaps.mostCommon();
  if (interval === undefined ? intervalOf(gap) !== undefined : gap === BAR_INTERVAL_MS[interval]) return;
  if (plausible(span.first, span.last)) return;
  for (const other of Object.keys(NANOSECOND_DIGITS) as (keyof typeof NANOSECOND_DIGITS)[]) {
    if (other === unit) continue;
    const digits = NANOSECOND_DIGITS[other] - NANOSECOND_DIGITS[unit];
    const fits = intervalOf(scaled(gap, digits));
    const first = scaled(span.first, digits);
    const last = scaled(span.last, digits);
    if (fits === undefined || !plausible(first, last)) continue;
    throw new CsvImportError(
      file,
      0,
      `the times, read as ${UNIT_WORDS[unit]} (--epoch-unit ${unit}), are mostly ${spacing(gap)} apart${gap % 1000 === 0 ? ` (${gap} ms)` : ''} in the year ${yearOf(span.first)}: as ${UNIT_WORDS[other]} they are ${fits} bars from ${new Date(first).toISOString()}; pass --epoch-unit ${other} (epochUnit in a CSV entry)`,
    );
  }
}

/** Whether bars from `first` to `last` fall in {@link PLAUSIBLE_START_MS}..{@link PLAUSIBLE_END_MS}. */
function plausible(first: number, last: number): boolean {
  return first >= PLAUSIBLE_START_MS && last < PLAUSIBLE_END_MS;
}

/** `ms` read in a unit `digits` powers of ten larger (negative: smaller); not whole when it does not divide. */
function scaled(ms: number, digits: number): number {
  return digits >= 0 ? ms * 10 ** digits : ms / 10 ** -digits;
}

/** The year of an instant, also one far beyond what `Date` holds. */
function yearOf(ms: number): number {
  const year = new Date(ms).getUTCFullYear();
  return Number.isNaN(year) ? Math.floor(1970 + ms / YEAR_MS) : year;
}
