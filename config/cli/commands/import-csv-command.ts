import { relative } from 'node:path';
import { importOhlcvCsv } from '../../../backtest/csv/index.ts';
import type { CliIo } from '../cli-io.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

/** Options of `keel import-csv`. */
export interface ImportCsvOptions {
  /** The CSV of bars. */
  readonly csv: string;
  /** The sym the rows belong to. */
  readonly sym: string;
  /** The recording to write. */
  readonly out: string;
}

/**
 * `keel import-csv <csv> --sym S --out R`: turns an OHLCV CSV into a recording of KLINE pushes a
 * backtest replays.
 * @param options - input, sym and output
 * @param io - output streams
 * @returns EXIT.OK, or EXIT.RUNTIME_FAILURE with the importer's located sentence
 */
export async function importCsvCommand(options: ImportCsvOptions, io: CliIo): Promise<ExitCode> {
  try {
    const summary = await importOhlcvCsv({ input: options.csv, output: options.out, sym: options.sym });
    io.stdout.write(
      `✔ ${summary.bars} ${summary.interval} bars of ${options.sym} from ${new Date(summary.firstOpenTime).toISOString()} ` +
        `to ${new Date(summary.lastCloseTime).toISOString()} -> ${relative(process.cwd(), summary.output)}` +
        (summary.skipped.length > 0 ? ` (${summary.skipped.length} rows skipped)` : '') +
        '\n',
    );
    return EXIT.OK;
  } catch (error) {
    io.stderr.write(`✖ keel import-csv: ${(error as Error).message}\n`);
    return EXIT.RUNTIME_FAILURE;
  }
}
