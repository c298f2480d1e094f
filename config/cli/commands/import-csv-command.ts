import { CsvImportError, importOhlcvCsv, type OhlcvImportOptions } from '../../../backtest/csv/index.ts';
import { shownPath } from '../../../backtest/report/index.ts';
import { keepPreviousRecording } from '../../compose/previous-recording.ts';
import { runAbortable } from '../../compose/signal-abort.ts';
import type { CliIo } from '../cli-io.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

/** How many skipped rows the summary lists, each with its line and reason. */
const SKIPPED_SHOWN = 10;

/** How to read the CSV: the importer's own options (zone, epoch unit, time format, interval...). */
export type CsvReading = Omit<OhlcvImportOptions, 'input' | 'output' | 'sym' | 'beforeReplace'>;

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
 * of KLINE pushes a backtest replays. A file already at `--out` (an earlier import's, a session's)
 * is kept under a dated name next to it, as a session keeps an earlier recording at its
 * `recording.path` (see `keepPreviousRecording`), and stderr says where; only once the new
 * recording is complete, so a failed import leaves it in place. An empty file is replaced.
 * SIGINT, SIGTERM or SIGHUP stops the import at once (it runs on a worker thread): its staged
 * file is removed, the file at `--out` left as it was.
 * @param options - input, sym, output and how to read the CSV
 * @param io - output streams
 * @returns EXIT.OK; EXIT.BAD_CONFIG_OR_USAGE with the importer's located sentence when the CSV
 *   cannot be read as bars (or not at all); EXIT.RUNTIME_FAILURE when the recording cannot be written;
 *   EXIT.INTERRUPTED / EXIT.TERMINATED / EXIT.HANGUP when SIGINT / SIGTERM / SIGHUP stopped it
 */
export async function importCsvCommand(options: ImportCsvOptions, io: CliIo): Promise<ExitCode> {
  const stopped = (signal: string) =>
    io.stderr.write(
      `✖ keel import-csv: stopped by ${signal}; no recording written, ${shownPath(options.out)} left as it was\n`,
    );
  // Stopping is at once (the worker is terminated): the line is said once it has stopped.
  return runAbortable({ stopping: () => undefined, forced: stopped }, (signal) =>
    importAndSummarize(options, io, signal),
  );
}

/** {@link importCsvCommand} while `signal` stops it: it then throws the abort's reason. */
async function importAndSummarize(
  options: ImportCsvOptions,
  io: CliIo,
  signal: AbortSignal,
): Promise<ExitCode> {
  try {
    const summary = await importOhlcvCsv({
      ...options.reading,
      input: options.csv,
      output: options.out,
      sym: options.sym,
      signal,
      beforeReplace: (target) => {
        const kept = keepPreviousRecording(target);
        if (kept !== undefined)
          io.stderr.write(
            `⚠ ${shownPath(options.out)} already existed: the earlier file was kept as ${shownPath(kept)}, not overwritten\n`,
          );
      },
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
    if (signal.aborted) throw signal.reason;
    io.stderr.write(`✖ keel import-csv: ${(error as Error).message}\n`);
    // A file that cannot be read as bars is bad input, as a bad config is: 2. Writing failed: 1.
    return error instanceof CsvImportError ? EXIT.BAD_CONFIG_OR_USAGE : EXIT.RUNTIME_FAILURE;
  }
}
