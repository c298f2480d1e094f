import type { CliIo } from '../cli-io.ts';
import { CommandNotAvailableError } from '../command-not-available.ts';
import type { ExitCode } from '../exit-codes.ts';

/** Options of `keel import-csv`. */
export interface ImportCsvOptions {
  /** The CSV file (trades or bars). */
  readonly csv: string;
  /** The sym the rows belong to. */
  readonly sym: string;
  /** The recording to write (`.jsonl` or `.jsonl.gz`). */
  readonly out: string;
}

/**
 * `keel import-csv <file.csv>`: turns a CSV of trades or bars into a recording a backtest can
 * replay.
 * @param _options - input, sym and output
 * @param _io - output streams
 * @returns the exit code of the import
 * @throws CommandNotAvailableError until the importer is wired into this build
 */
export async function importCsvCommand(_options: ImportCsvOptions, _io: CliIo): Promise<ExitCode> {
  throw new CommandNotAvailableError('import-csv');
}
