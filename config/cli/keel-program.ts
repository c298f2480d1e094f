import { Command, Option } from 'commander';
import type { EpochUnit } from '../../backtest/csv/index.ts';
import { BAR_INTERVAL_MS, type BarInterval } from '../../core/model/index.ts';
import packageJson from '../../package.json' with { type: 'json' };
import { formatConfigProblem, type LoadedConfig, type OverrideArg } from '../loader/index.ts';
import type { RunMode } from '../schema/index.ts';
import { screenCombinations } from '../sweep/screen-combinations.ts';
import { sweepMetricProblem } from '../sweep/sweep-metrics.ts';
import type { CliIo } from './cli-io.ts';
import { backtestCommand } from './commands/backtest-command.ts';
import { importCsvCommand } from './commands/import-csv-command.ts';
import { recordCommand } from './commands/record-command.ts';
import { reportCommand } from './commands/report-command.ts';
import { runCommand } from './commands/run-command.ts';
import { sweepCommand } from './commands/sweep-command.ts';
import { validateCommand } from './commands/validate-command.ts';
import { type VenueOptions, venueCommand } from './commands/venue-command.ts';
import { EXIT, type ExitCode, exitCodesHelp } from './exit-codes.ts';
import { type GridAxis, gridCombinations, parseGridAxis } from './grid-spec.ts';
import { loadForCommand } from './load-for-command.ts';
import { collect, ianaZone, intInRange, positiveNumber, symOption } from './option-parsers.ts';
import { builtInStrategyRegistry } from './strategy-registry.ts';

/** The flags of `keel import-csv` as commander parses them. */
interface ImportCsvFlags {
  readonly sym: string;
  readonly out: string;
  readonly zone: string;
  readonly epochUnit: EpochUnit;
  readonly timeFormat?: string;
  readonly timestampIs: 'open' | 'close';
  readonly interval?: BarInterval;
  readonly adjust: boolean;
  readonly skipInvalid: boolean;
  readonly synthetic: boolean;
}

const SET_HELP = 'override a config value before validation, e.g. strategies.0.params.fast=12 (repeatable)';

/**
 * Builds the `keel` command line. Actions report their exit code through `exit`; commander's
 * own exits (help, usage errors) are thrown as CommanderError for the caller to map.
 * @param io - output streams
 * @param exit - receives the exit code of the action that ran
 * @returns the commander program
 */
export function buildKeelProgram(io: CliIo, exit: (code: ExitCode) => void): Command {
  const program = new Command('keel')
    .description('Keel: run trading strategies live, on paper or on recordings, from one YAML config.')
    .version(packageJson.version)
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .showHelpAfterError('(keel <command> --help shows the usage)')
    .addHelpText('after', `\n${exitCodesHelp()}`);

  /** Loads a config and checks its mode for a command; prints why not and returns undefined. */
  const configFor = (
    command: string,
    file: string,
    sets: readonly OverrideArg[],
    modes: readonly RunMode[],
  ) => {
    const loaded = loadForCommand(file, sets, io);
    if (loaded !== undefined && !modes.includes(loaded.config.mode)) {
      io.stderr.write(
        `✖ keel ${command} needs a config with mode ${modes.join(' or ')}; ${file} has mode ${loaded.config.mode}\n`,
      );
      return undefined;
    }
    return loaded;
  };
  const withConfig = async (
    loaded: LoadedConfig | undefined,
    run: (loaded: LoadedConfig) => Promise<ExitCode>,
  ) => {
    exit(loaded === undefined ? EXIT.BAD_CONFIG_OR_USAGE : await run(loaded));
  };

  program
    .command('run')
    .description('run the strategies live (mode live) or against the embedded paper venue (mode paper)')
    .argument('<config>', 'the run config (YAML)')
    .option('--set <path=value>', SET_HELP, collect, [])
    .option('--duration <seconds>', 'stop after this many seconds', positiveNumber)
    .action(async (file: string, opts: { set: string[]; duration?: number }) => {
      await withConfig(configFor('run', file, opts.set, ['live', 'paper']), (loaded) =>
        runCommand(loaded, { durationSec: opts.duration }, io),
      );
    });

  program
    .command('backtest')
    .description("replay the config's recordings through the simulated venue and write the report")
    .argument('<config>', 'the backtest config (YAML, mode backtest)')
    .option('--from <time>', 'start of the replay window (ISO date-time with zone, or epoch ms)')
    .option('--to <time>', 'end of the replay window (ISO date-time with zone, or epoch ms)')
    .option('--set <path=value>', SET_HELP, collect, [])
    .option('--no-progress', 'do not show a progress bar')
    .option(
      '--recording <file>',
      "replay this recording instead of the config's (repeatable), e.g. the session npm start wrote",
      collect,
      [],
    )
    .action(
      async (
        file: string,
        opts: { set: string[]; from?: string; to?: string; progress: boolean; recording: string[] },
      ) => {
        const window = [
          ...(opts.from === undefined
            ? []
            : [{ set: `backtest.from=${opts.from}`, shownAs: `--from ${opts.from}` }]),
          ...(opts.to === undefined ? [] : [{ set: `backtest.to=${opts.to}`, shownAs: `--to ${opts.to}` }]),
        ];
        await withConfig(configFor('backtest', file, [...window, ...opts.set], ['backtest']), (loaded) =>
          backtestCommand(loaded, { progress: opts.progress, recordings: opts.recording }, io),
        );
      },
    );

  program
    .command('record')
    .description("record the market data of the config's instruments, without trading")
    .argument('<config>', 'a live or paper config (YAML)')
    .option('--out <file>', 'recording to write (.jsonl or .jsonl.gz); default recording.path')
    .option('--duration <seconds>', 'stop after this many seconds', positiveNumber)
    .option('--set <path=value>', SET_HELP, collect, [])
    .action(async (file: string, opts: { set: string[]; out?: string; duration?: number }) => {
      await withConfig(configFor('record', file, opts.set, ['live', 'paper']), (loaded) =>
        recordCommand(loaded, { out: opts.out, durationSec: opts.duration }, io),
      );
    });

  program
    .command('venue')
    .description('serve the paper venue (REST + WebSocket) on its own, until Ctrl-C')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on, 0 = any free port', intInRange(0, 65535), 0)
    .option('--recording <file>', 'replay this recording (default: synthetic data)')
    .option('--seed <n>', 'seed of the synthetic data', intInRange(0, 2 ** 31 - 1), 1)
    .option('--speed <x>', 'replay speed, 1 = real time', positiveNumber, 1)
    .option('--data-dir <dir>', 'keep orders, fills, positions and loans here across restarts and crashes')
    .addHelpText(
      'after',
      '\nWith KEEL_API_KEY and KEEL_API_SECRET set, the venue takes them as its credentials (the same on every start); otherwise it makes fresh ones and prints them (kept in --data-dir, if given, for its restarts).',
    )
    .action(async (opts: VenueOptions) => {
      exit(await venueCommand(opts, io, process.env));
    });

  program
    .command('import-csv')
    .description('turn a CSV of OHLCV bars into a recording a backtest can replay')
    .argument(
      '<csv>',
      'the CSV file (header row and column order detected; Yahoo, exchange, MetaTrader, German broker and plain layouts)',
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

  program
    .command('report')
    .description('rebuild the HTML report from a saved result')
    .argument('<result>', 'the result JSON a run or backtest wrote')
    .option('--out <file>', 'HTML file to write (default: next to the result)')
    .action(async (result: string, opts: { out?: string }) => {
      exit(await reportCommand({ result, out: opts.out }, io));
    });

  program
    .command('validate')
    .description('check a config without running it')
    .argument('<config>', 'the config (YAML)')
    .option('--set <path=value>', SET_HELP, collect, [])
    .option('--print', 'print the resolved config (defaults applied, secrets redacted)', false)
    .action(async (file: string, opts: { set: string[]; print: boolean }) => {
      exit(
        await validateCommand(
          file,
          { overrides: opts.set, print: opts.print },
          io,
          builtInStrategyRegistry(),
        ),
      );
    });

  program
    .command('sweep')
    .description('backtest every combination of a parameter grid on worker threads, sorted by a metric')
    .argument('<config>', 'the base backtest config (YAML, mode backtest)')
    .requiredOption(
      '--grid <path=v1,v2,...>',
      'an axis of the grid, e.g. strategies.0.params.fast=5,10,20 or fast=5..30:5 (from..to:step, inclusive); repeatable',
      collect,
      [],
    )
    .addOption(new Option('--workers <n>', 'worker threads').argParser(intInRange(1, 64)).default(2))
    .option(
      '--metric <name>',
      'result metric to sort by, best first (lowest first for drawdowns, volatility and costs)',
      'sharpe',
    )
    .option('--out <file>', 'write the result table as CSV')
    .option('--set <path=value>', SET_HELP, collect, [])
    .action(
      async (
        file: string,
        opts: { grid: string[]; workers: number; metric: string; out?: string; set: string[] },
      ) => {
        const metricProblem = sweepMetricProblem(opts.metric);
        if (metricProblem !== undefined) {
          io.stderr.write(`✖ ${metricProblem}\n`);
          exit(EXIT.BAD_CONFIG_OR_USAGE);
          return;
        }
        let grid: GridAxis[];
        let combinations: string[][];
        try {
          grid = opts.grid.map(parseGridAxis);
          combinations = gridCombinations(grid);
        } catch (error) {
          io.stderr.write(`✖ ${(error as Error).message}\n`);
          exit(EXIT.BAD_CONFIG_OR_USAGE);
          return;
        }
        const base = configFor('sweep', file, opts.set, ['backtest']);
        if (base === undefined) {
          exit(EXIT.BAD_CONFIG_OR_USAGE);
          return;
        }
        // Every combination is checked before any worker starts, so a bad value fails in a second, not at row 9.
        const screened = await screenCombinations(file, opts.set, combinations);
        if (!screened.ok) {
          for (const problem of screened.problems) io.stderr.write(`${formatConfigProblem(problem)}\n`);
          exit(EXIT.BAD_CONFIG_OR_USAGE);
          return;
        }
        const { runnable, refused } = screened;
        await withConfig(base, (loaded) =>
          sweepCommand(
            loaded,
            {
              grid,
              combinations: runnable,
              refused,
              workers: opts.workers,
              metric: opts.metric,
              out: opts.out,
              sets: opts.set,
            },
            io,
          ),
        );
      },
    );

  return program;
}
