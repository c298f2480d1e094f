import { type Command, Option } from 'commander';
import { type ConfigProblem, formatConfigProblem, formatSetPath } from '../loader/index.ts';
import { screenCombinations } from '../sweep/screen-combinations.ts';
import { sweepMetricProblem } from '../sweep/sweep-metrics.ts';
import type { CliIo } from './cli-io.ts';
import { sweepCommand } from './commands/sweep-command.ts';
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
import { EXIT, type ExitCode } from './exit-codes.ts';
import {
  type GridAxis,
  gridCombinations,
  MAX_GRID_COMBINATIONS,
  overrideOnGridAxis,
  parseGridAxis,
} from './grid-spec.ts';
import { collect, intInRange, positiveNumber } from './option-parsers.ts';

/**
 * Most combinations `--max-combinations` may allow (Keel's choice): every row is kept until the
 * table is written (a row of the example's 43 metrics is about 1.7 kB as JSON, more as objects),
 * so a million rows would take gigabytes, while 100 000 hold some hundreds of MB.
 */
const MAX_COMBINATIONS_RAISED = 100_000;

/**
 * Adds `keel sweep`: checks the metric, the grid and every combination's config before any
 * worker starts, then backtests the runnable combinations on worker threads.
 * @param program - the `keel` program
 * @param io - output streams
 * @param exit - receives the action's exit code
 */
export function addSweepCommand(program: Command, io: CliIo, exit: (code: ExitCode) => void): void {
  program
    .command('sweep')
    .description('backtest every combination of a parameter grid on worker threads, sorted by a metric')
    .argument('<config>', 'the base backtest config (YAML, mode backtest)')
    .requiredOption(
      '--grid <path=v1,v2,...>',
      'an axis of the grid: a config path and its values, e.g. strategies.0.params.fast=5,10,20, or a range from..to:step (inclusive) as in strategies.0.params.fast=5..30:5; repeatable',
      collect,
      [],
    )
    .addOption(new Option('--workers <n>', 'worker threads').argParser(intInRange(1, 64)).default(2))
    .addOption(
      new Option(
        '--max-combinations <n>',
        'most combinations the grid may have: a larger one is refused before anything runs',
      )
        .argParser(intInRange(1, MAX_COMBINATIONS_RAISED))
        .default(MAX_GRID_COMBINATIONS),
    )
    .option(
      '--metric <name>',
      'result metric to sort by, best first (lowest first for drawdowns, volatility and costs)',
      'sharpe',
    )
    .option('--out <file>', 'write the result table as CSV (full precision; its folder is made if missing)')
    .option(
      '--timeout <seconds>',
      'longest one backtest may run; one that takes longer is stopped and marked failed',
      positiveNumber,
    )
    .option('--from <time>', FROM_HELP)
    .option('--to <time>', TO_HELP)
    .option('--set <path=value>', SET_HELP, collect, [])
    .option('--unset <path>', UNSET_HELP, collect, [])
    .option('--recording <file>', RECORDING_HELP, collect, [])
    .addHelpText(
      'after',
      '\nCtrl-C (or SIGTERM, SIGHUP) stops the sweep and prints the rows finished so far, marked partial, and writes them beside --out as <name>.partial.csv (exit 130, or 143, 129).',
    )
    .action(
      async (
        file: string,
        opts: {
          grid: string[];
          workers: number;
          maxCombinations: number;
          metric: string;
          out?: string;
          timeout?: number;
          from?: string;
          to?: string;
          set: string[];
          unset: string[];
          recording: string[];
        },
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
          grid = opts.grid.map((arg) => parseGridAxis(arg, opts.maxCombinations));
          combinations = gridCombinations(grid, opts.maxCombinations);
        } catch (error) {
          io.stderr.write(`✖ ${(error as Error).message}\n`);
          exit(EXIT.BAD_CONFIG_OR_USAGE);
          return;
        }
        for (const axis of grid)
          if (axis.repeated !== undefined)
            io.stderr.write(
              `⚠ --grid ${formatSetPath(axis.path)}: ${axis.repeated.join(', ')} given again; each value runs once\n`,
            );
        const sets = commandOverrides(opts.unset, opts.set, replayWindowOverrides(opts.from, opts.to));
        const overlap = overrideOnGridAxis(sets, grid);
        if (overlap !== undefined) {
          io.stderr.write(`✖ ${overlap}\n`);
          exit(EXIT.BAD_CONFIG_OR_USAGE);
          return;
        }
        const base = configForCommand(io, 'sweep', file, sets, ['backtest']);
        if (base === undefined) {
          exit(EXIT.BAD_CONFIG_OR_USAGE);
          return;
        }
        // Every combination is checked before any worker starts, so a bad value fails in a second, not at row 9.
        const screened = await screenCombinations(file, sets, combinations);
        if (!screened.ok) {
          for (const problem of screened.problems)
            io.stderr.write(`${formatConfigProblem(asTypedBy(problem, opts.set))}\n`);
          exit(EXIT.BAD_CONFIG_OR_USAGE);
          return;
        }
        const { runnable, refused } = screened;
        exit(
          await sweepCommand(
            base,
            {
              grid,
              combinations: runnable,
              refused,
              workers: opts.workers,
              metric: opts.metric,
              out: opts.out,
              ...(opts.timeout === undefined ? {} : { timeoutMs: opts.timeout * 1000 }),
              ...(opts.recording.length === 0 ? {} : { recordings: opts.recording }),
              sets,
            },
            io,
          ),
        );
      },
    );
}

/**
 * A combination's problem as the user typed it: the loader locates each combination's value as
 * a `--set`, but it came from a `--grid` unless it is one of the sweep's own `--set`s.
 */
function asTypedBy(problem: ConfigProblem, sets: readonly string[]): ConfigProblem {
  const SET = '--set ';
  if (!problem.where.startsWith(SET) || sets.includes(problem.where.slice(SET.length))) return problem;
  return {
    ...problem,
    subject: problem.subject === '--set' ? '--grid' : problem.subject,
    where: `--grid ${problem.where.slice(SET.length)}`,
  };
}
