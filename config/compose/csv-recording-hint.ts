/** The config list whose `{ csv, sym }` entries read OHLCV CSVs. */
export type CsvEntryList = 'backtest.recordings' | 'warmUp.history';

/**
 * What to do with an OHLCV CSV named where a Keel recording is expected (the recording reader
 * would say only "header is not JSON"): name it as a `{ csv, sym }` entry of `backtest.recordings`
 * or `warmUp.history`, where such an entry can stand, or turn it into a recording with
 * `keel import-csv`.
 * @param importPath - the CSV as the `keel import-csv` command names it (from the working directory)
 * @param entryCsv - the CSV as a `{ csv, sym }` entry would name it (from the config's folder);
 *   absent where no such entry can stand (a paper source, `keel venue`)
 * @param list - the list such an entry goes in (default `backtest.recordings`)
 * @returns e.g. `an OHLCV CSV, not a recording; name it in backtest.recordings as { csv: x.csv, sym: <SYM> } …, or make it a recording with keel import-csv x.csv …`
 */
export function csvRecordingHint(
  importPath: string,
  entryCsv?: string,
  list: CsvEntryList = 'backtest.recordings',
): string {
  const entry =
    entryCsv === undefined
      ? ''
      : `name it in ${list} as { csv: ${entryCsv}, sym: <SYM> } (with interval, zone... as keel import-csv takes them), or `;
  return `an OHLCV CSV, not a recording; ${entry}make it a recording with keel import-csv ${importPath} --sym <SYM> --out <recording>.jsonl.gz`;
}
