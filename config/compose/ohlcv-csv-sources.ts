import { resolve } from 'node:path';
import type { OhlcvCsvSource } from '../../backtest/csv/index.ts';
import { shownPath } from '../../backtest/report/index.ts';
import type { OhlcvCsvConfig } from '../schema/index.ts';

/**
 * What the CSV reader takes of a config's OHLCV CSV entry (a backtest recording or warm-up
 * history): the file relative to the config's folder, shown as `shownPath` shows it (relative to
 * the working directory when under it, as a backtest names its recordings), and the reading
 * options under the importer's names.
 * @param entry - the validated entry
 * @param dir - the config file's folder
 * @returns the source `readOhlcvCsvBars` and a backtest read
 */
export function ohlcvCsvSourceOf(entry: OhlcvCsvConfig, dir: string): OhlcvCsvSource {
  const { csv, skipInvalid, ...reading } = entry;
  return {
    ...reading,
    input: shownPath(resolve(dir, csv)),
    ...(skipInvalid === undefined ? {} : { onInvalidRow: skipInvalid ? 'skip' : 'error' }),
  };
}
