import { existsSync } from 'node:fs';
import {
  CsvImportError,
  IMPORT_VENUE,
  importOhlcvCsv,
  type OhlcvImportOptions,
} from '../../../backtest/csv/index.ts';
import { readSessionHeader } from '../../../backtest/recording/index.ts';
import { shownPath } from '../../../backtest/report/index.ts';
import { keepPreviousRecording } from '../../compose/previous-recording.ts';
import type { CliIo } from '../cli-io.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

/** How many skipped rows the summary lists, each with its line and reason. */
const SKIPPED_SHOWN = 10;

/** How to read the CSV: the importer's own options (zone, epoch unit, time format, interval...). */
export type CsvReading = Omit<OhlcvImportOptions, 'input' | 'output' | 'sym'>;

/** Options of `keel import-csv`. */
export interface ImportCsvOptions {
  /** The CSV of bars. */
  readonly csv: string;
  /** The sym the rows belong to. */
  readonly sym: string;
  /** The recording to write. */
  readonly out: string;
  /** How to read it; the importer's defaults for whatever is left out. */
  readonly reading?: CsvReading;
}

/**
 * `keel import-csv <csv> --sym S --out R [reading options]`: turns an OHLCV CSV into a recording
 * of KLINE pushes a backtest replays.
 * @param options - input, sym, output and how to read the CSV
 * @param io - output streams
 * @returns EXIT.OK; EXIT.BAD_CONFIG_OR_USAGE with the importer's located sentence when the CSV
 *   cannot be read as bars (or not at all); EXIT.RUNTIME_FAILURE when the recording cannot be written
 */
export async function importCsvCommand(options: ImportCsvOptions, io: CliIo): Promise<ExitCode> {
  try {
    const kept = await keepSessionRecording(options.out);
    if (kept !== undefined)
      io.stdout.write(
        `⚠ ${shownPath(options.out)} held a recording no import wrote: kept as ${shownPath(kept)}\n`,
      );
    const summary = await importOhlcvCsv({
      ...options.reading,
      input: options.csv,
      output: options.out,
      sym: options.sym,
    });
    io.stdout.write(
      `✔ ${summary.bars} ${summary.interval} bars of ${options.sym} from ${new Date(summary.firstOpenTime).toISOString()} ` +
        `to ${new Date(summary.lastCloseTime).toISOString()} -> ${shownPath(summary.output)}` +
        (summary.skipped.length > 0 ? ` (${summary.skipped.length} rows skipped)` : '') +
        '\n',
    );
    for (const row of summary.skipped.slice(0, SKIPPED_SHOWN))
      io.stdout.write(`  line ${row.line}: ${row.reason}\n`);
    if (summary.skipped.length > SKIPPED_SHOWN)
      io.stdout.write(`  ... and ${summary.skipped.length - SKIPPED_SHOWN} more\n`);
    io.stdout.write(`  columns: ${summary.columns}\n`);
    for (const warning of summary.warnings) io.stdout.write(`⚠ ${warning}\n`);
    return EXIT.OK;
  } catch (error) {
    io.stderr.write(`✖ keel import-csv: ${(error as Error).message}\n`);
    // A file that cannot be read as bars is bad input, as a bad config is: 2. Writing failed: 1.
    return error instanceof CsvImportError ? EXIT.BAD_CONFIG_OR_USAGE : EXIT.RUNTIME_FAILURE;
  }
}

/**
 * Moves a recording at the output path out of the way unless an earlier import wrote it (a file
 * that is no recording is left to the importer's checks): a
 * session's or `keel record`'s frames cannot be fetched again, an import's can (Keel's choice:
 * re-importing over one's own import is the common case and stays a plain overwrite).
 * @param out - the output path
 * @returns where the earlier recording now is, or undefined when nothing was kept
 */
async function keepSessionRecording(out: string): Promise<string | undefined> {
  if (!existsSync(out)) return undefined;
  let venue: string;
  try {
    venue = (await readSessionHeader(out)).venue;
  } catch {
    // Not a recording (the CSV itself, say): the importer's own checks speak of it.
    return undefined;
  }
  return venue === IMPORT_VENUE ? undefined : keepPreviousRecording(out);
}
