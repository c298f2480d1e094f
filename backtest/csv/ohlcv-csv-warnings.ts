import type { OhlcvCsvBars } from './read-ohlcv-csv.ts';

/** How many skipped rows a CSV's warning lists, each with its line and reason. */
const SKIPPED_NAMED = 3;

/**
 * What a run that reads an OHLCV CSV (a backtest's recording entry, a warm-up's history entry)
 * tells of it: the rows it skipped (`skipInvalid`), the first few with their line and reason, and
 * what looks wrong though the file read, one sentence each, naming the file.
 * @param input - the file as the run names it
 * @param bars - what {@link readOhlcvCsvBars} read of it
 * @returns the sentences; empty when nothing was skipped or looks wrong
 */
export function ohlcvCsvWarnings(input: string, bars: Pick<OhlcvCsvBars, 'skipped' | 'warnings'>): string[] {
  const { skipped } = bars;
  const named = skipped
    .slice(0, SKIPPED_NAMED)
    .map((row) => `line ${row.line}: ${row.reason}`)
    .join('; ');
  return [
    ...(skipped.length === 0
      ? []
      : [
          `${input}: ${skipped.length} row(s) skipped (${named}${skipped.length > SKIPPED_NAMED ? '; ...' : ''})`,
        ]),
    ...bars.warnings.map((warning) => `${input}: ${warning}`),
  ];
}
