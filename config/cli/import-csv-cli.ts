import { type Command, Option } from 'commander';
import type { DecimalMark, EpochUnit } from '../../backtest/csv/index.ts';
import { BAR_INTERVAL_MS, type BarInterval } from '../../core/model/index.ts';
import type { CliIo } from './cli-io.ts';
import { importCsvCommand } from './commands/import-csv-command.ts';
import type { ExitCode } from './exit-codes.ts';
import { ianaZone, symOption } from './option-parsers.ts';

/** The flags of `keel import-csv` as commander parses them. */
interface ImportCsvFlags {
  readonly sym: string;
  readonly out: string;
  readonly zone: string;
  readonly epochUnit: EpochUnit;
  readonly timeFormat?: string;
  readonly decimalMark?: DecimalMark;
  /** `--header` (true), `--no-header` (false), or neither: detected. */
  readonly header?: boolean;
  readonly timestampIs: 'open' | 'close';
  readonly interval?: BarInterval;
  readonly adjust: boolean;
  readonly skipInvalid: boolean;
  readonly synthetic: boolean;
}

/**
 * Adds `keel import-csv`: its many reading options (zone, epoch unit, time format, what the time
 * means, decimal mark, header, interval, adjustment, invalid rows) and the action that turns a CSV into a recording.
 * @param program - the `keel` program
 * @param io - output streams
 * @param exit - receives the action's exit code
 */
export function addImportCsvCommand(program: Command, io: CliIo, exit: (code: ExitCode) => void): void {
  program
    .command('import-csv')
    .description('turn a CSV of OHLCV bars into a recording a backtest can replay')
    .argument(
      '<csv>',
      'the CSV file (header row and column order detected; Yahoo, pandas, exchange, CryptoDataDownload, MetaTrader, German broker, Investing.com, Nasdaq.com and plain layouts)',
    )
    .requiredOption(
      '--sym <sym>',
      'the sym the rows belong to, e.g. BINANCE_PERP_BTC_USDT or US_EQUITY_AAPL',
      symOption,
    )
    .requiredOption('--out <file>', 'recording to write (.jsonl or .jsonl.gz)')
    .option(
      '--zone <iana>',
      'time zone of times written without an offset, e.g. America/New_York',
      ianaZone,
      'UTC',
    )
    .addOption(
      new Option('--epoch-unit <unit>', 'unit of numeric timestamps (auto: by magnitude)')
        .choices(['auto', 's', 'ms', 'us', 'ns'])
        .default('auto'),
    )
    .option('--time-format <luxon>', 'luxon format of dates the defaults do not read, e.g. dd/MM/yyyy HH:mm')
    .addOption(
      new Option(
        '--decimal-mark <mark>',
        'the decimal mark of the numbers, for a file that reads two ways (151.234 and 1,234): point or comma (default: detected)',
      ).choices(['point', 'comma']),
    )
    .option('--header', 'the first row is a header (default: detected)')
    .option(
      '--no-header',
      'the file has no header: its first row is a bar (default: detected; a row of numbers, NaN or decimal commas is one)',
    )
    .addOption(
      new Option('--timestamp-is <when>', "whether a row's time is its bar's open or close")
        .choices(['open', 'close'])
        .default('open'),
    )
    .addOption(
      new Option('--interval <interval>', 'bar interval (default: the most common gap between rows)').choices(
        Object.keys(BAR_INTERVAL_MS),
      ),
    )
    .option('--adjust', 'scale open, high, low and close by Adj Close / Close (splits, dividends)', false)
    .option('--skip-invalid', 'skip rows that are not valid bars (and list them) instead of stopping', false)
    .option('--synthetic', 'label the recording SYNTHETIC (generated data saved as CSV)', false)
    .action(async (csv: string, opts: ImportCsvFlags) => {
      exit(
        await importCsvCommand(
          {
            csv,
            sym: opts.sym,
            out: opts.out,
            reading: {
              zone: opts.zone,
              epochUnit: opts.epochUnit,
              ...(opts.timeFormat === undefined ? {} : { timeFormat: opts.timeFormat }),
              ...(opts.decimalMark === undefined ? {} : { decimalMark: opts.decimalMark }),
              ...(opts.header === undefined ? {} : { header: opts.header }),
              timestampIs: opts.timestampIs,
              ...(opts.interval === undefined ? {} : { interval: opts.interval }),
              adjust: opts.adjust,
              onInvalidRow: opts.skipInvalid ? 'skip' : 'error',
              synthetic: opts.synthetic,
            },
          },
          io,
        ),
      );
    });
}
