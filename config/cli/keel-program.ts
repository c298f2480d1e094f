import { Command, Option } from 'commander';
import { KEEL_VERSION } from '../../core/model/index.ts';
import { ARRAY_ENCODINGS } from '../../core/venue/index.ts';
import type { LoadedConfig, OverrideArg } from '../loader/index.ts';
import type { RunMode } from '../schema/index.ts';
import type { CliIo } from './cli-io.ts';
import { backtestCommand } from './commands/backtest-command.ts';
import { recordCommand } from './commands/record-command.ts';
import { reportCommand } from './commands/report-command.ts';
import { runCommand } from './commands/run-command.ts';
import { validateCommand } from './commands/validate-command.ts';
import { type VenueOptions, venueCommand } from './commands/venue-command.ts';
import {
  commandOverrides,
  configForCommand,
  FROM_HELP,
  RECORDING_HELP,
  replayWindowOverrides,
  SET_HELP,
  TO_HELP,
  UNSET_HELP,
} from './config-for-command.ts';
import { EXIT, type ExitCode, exitCodesHelp } from './exit-codes.ts';
import { addImportCsvCommand } from './import-csv-cli.ts';
import { collect, intInRange, positiveNumber } from './option-parsers.ts';
import { builtInStrategyRegistry } from './strategy-registry.ts';
import { addSweepCommand } from './sweep-cli.ts';
import {
  venueBalanceOption,
  venueFillModelOption,
  venueLatencyOption,
  venueLoansOption,
} from './venue-option-parsers.ts';

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
    .version(KEEL_VERSION)
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .showHelpAfterError('(keel <command> --help shows the usage)')
    .addHelpText('after', `\n${exitCodesHelp()}`);

  const configFor = (
    command: string,
    file: string,
    sets: readonly OverrideArg[],
    modes: readonly RunMode[],
  ) => configForCommand(io, command, file, sets, modes);
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
    .option('--unset <path>', UNSET_HELP, collect, [])
    .option('--duration <seconds>', 'stop after this many seconds', positiveNumber)
    .action(async (file: string, opts: { set: string[]; unset: string[]; duration?: number }) => {
      const overrides = commandOverrides(opts.unset, opts.set);
      await withConfig(configFor('run', file, overrides, ['live', 'paper']), (loaded) =>
        runCommand(loaded, { durationSec: opts.duration }, io),
      );
    });

  program
    .command('backtest')
    .description("replay the config's recordings through the simulated venue and write the report")
    .argument('<config>', 'the backtest config (YAML, mode backtest)')
    .option('--from <time>', FROM_HELP)
    .option('--to <time>', TO_HELP)
    .option('--set <path=value>', SET_HELP, collect, [])
    .option('--unset <path>', UNSET_HELP, collect, [])
    .option('--no-progress', 'do not show a progress bar')
    .option('--recording <file>', RECORDING_HELP, collect, [])
    .action(
      async (
        file: string,
        opts: {
          set: string[];
          unset: string[];
          from?: string;
          to?: string;
          progress: boolean;
          recording: string[];
        },
      ) => {
        const overrides = commandOverrides(opts.unset, opts.set, replayWindowOverrides(opts.from, opts.to));
        await withConfig(configFor('backtest', file, overrides, ['backtest']), (loaded) =>
          backtestCommand(loaded, { progress: opts.progress, recordings: opts.recording }, io),
        );
      },
    );

  program
    .command('record')
    .description("record the market data of the config's instruments, without trading")
    .argument('<config>', 'a live or paper config (YAML)')
    .option(
      '--out <file>',
      "recording to write (.jsonl or .jsonl.gz); default recording.path, else out/<name>-market.jsonl.gz (<name>: the config's name, else its mode)",
    )
    .option('--duration <seconds>', 'stop after this many seconds', positiveNumber)
    .option('--set <path=value>', SET_HELP, collect, [])
    .option('--unset <path>', UNSET_HELP, collect, [])
    .action(
      async (file: string, opts: { set: string[]; unset: string[]; out?: string; duration?: number }) => {
        const overrides = commandOverrides(opts.unset, opts.set);
        await withConfig(configFor('record', file, overrides, ['live', 'paper']), (loaded) =>
          recordCommand(loaded, { out: opts.out, durationSec: opts.duration }, io),
        );
      },
    );

  program
    .command('venue')
    .description('serve the paper venue (REST + WebSocket) on its own, until Ctrl-C')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on, 0 = any free port', intInRange(0, 65535), 0)
    .option('--recording <file>', 'replay this recording (default: synthetic data)')
    .option('--seed <n>', 'seed of the synthetic data', intInRange(0, 2 ** 31 - 1), 1)
    .option('--speed <x>', 'replay speed, 1 = real time', positiveNumber, 1)
    .option('--data-dir <dir>', 'keep orders, fills, positions and loans here across restarts and crashes')
    .option(
      '--balance <ASSET=AMOUNT>',
      'a starting balance of the account, repeatable (default: 100000 USDT, as paper.startingCash)',
      venueBalanceOption,
    )
    .option(
      '--fill-model <model>',
      "the simulated matching, as paper.fillModel: bar, queue, touch or through, or a map like '{name: queue, partialFills: false, slippageTicks: 1}' (default: bar when the data begins with bars only, e.g. a keel import-csv recording, else queue, as a backtest and a paper run choose)",
      venueFillModelOption,
    )
    .option(
      '--latency <ms>',
      "order-entry latency in ms, or a map as paper.latency takes it, like '{fixedMs: 25, jitterMs: 10, seed: 2, userData: {fixedMs: 5}}' (default: none)",
      venueLatencyOption,
    )
    .option(
      '--loans <terms>',
      `loan terms as paper.loans takes them, a map like '{assets: {"BINANCE:USDT": {annualRate: 0.08, userQuota: 50000, minBorrow: 10}}, maxBorrowLtv: 0.5}' or a YAML file holding one (default: Keel's assumed terms, no venue's rates: USDT on BINANCE and OKX at 8 % a year up to 50000, ETH on OKX at 3 % up to 20)`,
      venueLoansOption,
    )
    .addOption(
      new Option(
        '--signature-arrays <encoding>',
        'how the venue writes an array parameter of a JSON body (symList, clientOrderIds) into the REST signature text it verifies (arrays of a query, comma-joined, are verified as sent), as venue.signing.arrays takes it: set it otherwise than the client to rehearse the 2000 a mismatch gets (default: comma, as Keel signs)',
      ).choices(ARRAY_ENCODINGS),
    )
    .option(
      '--no-account-assets',
      "leave the assets out of GET /api/v1/trading/account, as the public notes' account fields do, so a session learns balances from the Assets channel only (default: listed, Keel's extension)",
    )
    .addHelpText(
      'after',
      '\nIt states its account, fill model, latency and loan terms at start; with --data-dir a restart keeps the ones of its first start.\nWith KEEL_API_KEY and KEEL_API_SECRET set, the venue takes them as its credentials (the same on every start); otherwise it makes fresh ones and prints them (kept in --data-dir, if given, for its restarts).',
    )
    .action(async (opts: VenueOptions) => {
      exit(await venueCommand(opts, io, process.env));
    });

  addImportCsvCommand(program, io, exit);

  program
    .command('report')
    .description('rebuild the HTML report from a saved result')
    .argument('<result>', 'the result JSON a run or backtest wrote')
    .argument('[out]', 'HTML file to write, as --out gives it (default: next to the result)')
    .option('--out <file>', 'HTML file to write (default: next to the result)')
    .action(async (result: string, out: string | undefined, opts: { out?: string }) => {
      exit(
        await reportCommand(
          { result, out: out ?? opts.out, bothOuts: out !== undefined && opts.out !== undefined },
          io,
        ),
      );
    });

  program
    .command('validate')
    .description('check a config without running it')
    .argument('<config>', 'the config (YAML)')
    .option('--set <path=value>', SET_HELP, collect, [])
    .option('--unset <path>', UNSET_HELP, collect, [])
    .option('--print', 'print the resolved config (defaults applied, secrets redacted)', false)
    .action(async (file: string, opts: { set: string[]; unset: string[]; print: boolean }) => {
      exit(
        await validateCommand(
          file,
          { overrides: commandOverrides(opts.unset, opts.set), print: opts.print },
          io,
          builtInStrategyRegistry(),
        ),
      );
    });

  addSweepCommand(program, io, exit);

  return program;
}
