import { writeFileSync } from 'node:fs';
import { readSessionHeader } from '../../../backtest/recording/index.ts';
import { csvField } from '../../../backtest/report/index.ts';
import { backtestRecordings } from '../../compose/backtest-run.ts';
import { missingRecordingProblems } from '../../compose/recording-problems.ts';
import type { LoadedConfig } from '../../loader/index.ts';
import { formatConfigProblem, formatSetPath } from '../../loader/index.ts';
import { runSweep, sortRows } from '../../sweep/run-sweep.ts';
import type { RefusedCombination } from '../../sweep/screen-combinations.ts';
import { lowerIsBetter } from '../../sweep/sweep-metrics.ts';
import type { SweepRow } from '../../sweep/sweep-task.ts';
import type { CliIo } from '../cli-io.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { type GridAxis, gridCombinations } from '../grid-spec.ts';
import { sweepProgress } from '../sweep-progress.ts';

/** Options of `keel sweep`. */
export interface SweepOptions {
  /** The axes (their paths head the table's columns). */
  readonly grid: readonly GridAxis[];
  /** The combinations to backtest (checked to validate before this is called); default: every one of the grid. */
  readonly combinations?: readonly (readonly string[])[];
  /** Combinations a strategy's check across its params refused (`screenCombinations`): listed, not run. */
  readonly refused?: readonly RefusedCombination[];
  /** Worker threads (piscina). */
  readonly workers: number;
  /** The result metric rows are sorted by, best first (lowest first where less is better). */
  readonly metric: string;
  /** Where to write the result table (CSV); absent = stdout only. */
  readonly out: string | undefined;
  /** `--set` arguments applied to every combination. */
  readonly sets?: readonly string[];
}

const SHOWN = ['totalReturn', 'sharpe', 'maxDrawdown', 'tradeCount', 'winRate'];

function axisValue(combination: readonly string[], path: string): string {
  const set = combination.find((s) => s.startsWith(`${path}=`));
  return set === undefined ? '' : set.slice(path.length + 1);
}

/** `fast=10 slow=8` of a combination: each axis's value under its path. */
function describeCombination(combination: readonly string[], paths: readonly string[]): string {
  return paths.map((path) => `${path}=${axisValue(combination, path)}`).join(' ');
}

function cell(value: number | null | undefined): string {
  if (value === null || value === undefined) return 'n/a';
  return Number.isInteger(value) ? String(value) : value.toFixed(4);
}

/**
 * `keel sweep <config> --grid ...`: backtests every combination of the grid on worker threads,
 * one result row per combination, sorted by the chosen metric, printed as a table (and CSV). A
 * combination whose strategy threw is named below the table with its first fault; combinations
 * a strategy's own check refused are listed below it too, with the strategy's reason.
 * @param loaded - the validated base config (mode backtest)
 * @param options - grid, workers, metric and output
 * @param io - output streams
 * @returns EXIT.OK, EXIT.BAD_CONFIG_OR_USAGE for an unknown metric (`keel sweep` checks it before
 *   calling this), a missing recording or a grid whose every combination was refused,
 *   EXIT.RUNTIME_FAILURE when a combination's backtest failed (after the table, which keeps the
 *   other rows and marks it `failed`), EXIT.STRATEGY_FAULT when a strategy threw in some
 *   combination (after the table, with a `faults` column and the first fault of each such row)
 */
export async function sweepCommand(
  loaded: LoadedConfig,
  options: SweepOptions,
  io: CliIo,
): Promise<ExitCode> {
  const missing = missingRecordingProblems(loaded);
  if (missing.length > 0) {
    for (const problem of missing) io.stderr.write(`${formatConfigProblem(problem)}\n`);
    return EXIT.BAD_CONFIG_OR_USAGE;
  }
  const combinations = options.combinations ?? gridCombinations(options.grid);
  const refused = options.refused ?? [];
  const paths = options.grid.map((axis) => formatSetPath(axis.path));
  if (combinations.length === 0) {
    const first = refused[0];
    const example =
      first === undefined
        ? ''
        : `, e.g. ${describeCombination(first.combination, paths)}: ${first.reasons.join('; ')}`;
    io.stderr.write(`✖ keel sweep: the strategy refuses every combination of the grid${example}\n`);
    return EXIT.BAD_CONFIG_OR_USAGE;
  }
  const started = performance.now();
  let rows: SweepRow[];
  const progress = sweepProgress(io.stderr, combinations.length);
  try {
    rows = await runSweep({
      file: loaded.file,
      sets: options.sets ?? [],
      combinations,
      workers: options.workers,
      onRow: (_row, done) => progress.update(done),
    });
    progress.stop();
  } catch (error) {
    progress.stop();
    // A combination's config problems are located sentences that carry their own ✖ already.
    const message = (error as Error).message;
    io.stderr.write(`${message.startsWith('✖ ') ? message : `✖ keel sweep: ${message}`}\n`);
    return EXIT.RUNTIME_FAILURE;
  }
  let sorted: SweepRow[];
  try {
    sorted = sortRows(rows, options.metric);
  } catch (error) {
    io.stderr.write(`✖ ${(error as Error).message}\n`);
    return EXIT.BAD_CONFIG_OR_USAGE;
  }
  const metrics = [options.metric, ...SHOWN.filter((m) => m !== options.metric)];
  const faulted = sorted.filter((row) => row.faults.length > 0);
  const failed = sorted.filter((row) => row.error !== undefined);
  const header = [
    ...paths,
    ...metrics,
    'fills',
    ...(faulted.length > 0 ? ['faults'] : []),
    ...(failed.length > 0 ? ['failed'] : []),
  ];
  const table = sorted.map((row) => [
    ...paths.map((path) => axisValue(row.sets, path)),
    ...metrics.map((m) => cell(row.metrics[m])),
    row.error === undefined ? String(row.fills) : 'n/a',
    ...(faulted.length > 0 ? [String(row.faults.length)] : []),
    ...(failed.length > 0 ? [row.error === undefined ? '' : 'yes'] : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ');
  const headers = await Promise.all(backtestRecordings(loaded).map(readSessionHeader));
  const synthetic = headers.some((h) => h.synthetic) ? ' (SYNTHETIC data)' : '';
  io.stdout.write(
    `${[line(header), ...table.map(line)].join('\n')}\n${rows.length}${refused.length > 0 ? ` of ${rows.length + refused.length}` : ''} combinations${synthetic} on ${options.workers} worker(s) in ${((performance.now() - started) / 1000).toFixed(1)} s, sorted by ${options.metric}, ${lowerIsBetter(options.metric) ? 'lowest' : 'highest'} first\n`,
  );
  if (rows.every((row) => row.metrics[options.metric] === null))
    io.stdout.write(
      `⚠ ${options.metric} is n/a in every row, so the rows keep the grid's order (annualized figures such as sharpe need a run of at least a day)\n`,
    );
  if (refused.length > 0) {
    io.stdout.write(
      `⚠ ${refused.length} of ${refused.length + rows.length} combinations not run, refused by the strategy's own check of its params:\n`,
    );
    for (const { combination, reasons } of refused)
      io.stdout.write(`  ${describeCombination(combination, paths)}: ${reasons.join('; ')}\n`);
  }
  for (const row of faulted) {
    const where = describeCombination(row.sets, paths);
    io.stdout.write(
      `✖ ${where}: ${row.faults[0]}${row.faults.length > 1 ? ` (and ${row.faults.length - 1} more)` : ''}\n`,
    );
  }
  for (const row of failed)
    io.stdout.write(`✖ ${describeCombination(row.sets, paths)}: its backtest failed: ${row.error}\n`);
  if (options.out !== undefined) {
    const csv = [header, ...table].map((r) => r.map(csvField).join(',')).join('\n');
    writeFileSync(options.out, `${csv}\n`);
    io.stdout.write(`table: ${options.out}\n`);
  }
  if (failed.length > 0) return EXIT.RUNTIME_FAILURE;
  return faulted.length > 0 ? EXIT.STRATEGY_FAULT : EXIT.OK;
}
