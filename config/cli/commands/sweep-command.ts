import { rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { extname, resolve } from 'node:path';
import { readSessionHeader } from '../../../backtest/recording/index.ts';
import { csvField, writeTextFile } from '../../../backtest/report/index.ts';
import { backtestSources } from '../../compose/backtest-run.ts';
import { configRecordingProblems } from '../../compose/config-recording-problems.ts';
import { replayWindowProblem } from '../../compose/replay-window-check.ts';
import { signalExitCode } from '../../compose/session-stop.ts';
import { type StopSignal, watchStartUpSignals } from '../../compose/start-up-signals.ts';
import type { LoadedConfig, OverrideArg } from '../../loader/index.ts';
import { formatConfigProblem, formatSetPath } from '../../loader/index.ts';
import { runSweep, sortRows, sweepThreads } from '../../sweep/run-sweep.ts';
import type { RefusedCombination } from '../../sweep/screen-combinations.ts';
import { screenReplayWindows } from '../../sweep/screen-replay-windows.ts';
import { lowerIsBetter } from '../../sweep/sweep-metrics.ts';
import type { SweepRow } from '../../sweep/sweep-task.ts';
import { isBadInputFile } from '../bad-input-file.ts';
import type { CliIo } from '../cli-io.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { type GridAxis, gridCombinations } from '../grid-spec.ts';
import { outFileProblem } from '../out-file.ts';
import { recordingOptionProblems } from '../recording-option-problems.ts';
import { sweepProgress } from '../sweep-progress.ts';
import { axisValue, sweepTable } from '../sweep-table.ts';
import { groupSweepTexts } from './sweep-warning-groups.ts';

/** Options of `keel sweep`. */
export interface SweepOptions {
  /** The axes (their paths head the table's columns). */
  readonly grid: readonly GridAxis[];
  /** The combinations to backtest (checked to validate before this is called); default: every one of the grid. */
  readonly combinations?: readonly (readonly string[])[];
  /**
   * Combinations not run (`screenCombinations`): a strategy's own check refused them, or their
   * window ends before it starts. Those whose window misses the recordings are found here.
   */
  readonly refused?: readonly RefusedCombination[];
  /** Worker threads (piscina): no more start than there are combinations. */
  readonly workers: number;
  /** The result metric rows are sorted by, best first (lowest first where less is better). */
  readonly metric: string;
  /** Where to write the result table (CSV, full precision); absent = stdout only. */
  readonly out: string | undefined;
  /** Longest one backtest may run (`--timeout`); absent = no limit. */
  readonly timeoutMs?: number;
  /** Overrides applied to every combination (`--set`, `--from`, `--to`). */
  readonly sets?: readonly OverrideArg[];
  /** Recordings replacing the config's in every combination (`--recording`); absent = the config's. */
  readonly recordings?: readonly string[];
}

/** Most rows whose denials are named under the table; the `denied` column counts them all. */
const DENIALS_NAMED = 10;

/** Why a combination was not run, by who refused it. */
const REFUSED_BY: Readonly<Record<RefusedCombination['by'], string>> = {
  params: "refused by the strategy's own check of its params",
  window: 'their replay window ends before it starts',
  data: 'their replay window holds no recorded event',
};

/** Why the refused combinations were not run, e.g. `refused by the strategy's own check of its params`. */
function refusedBy(refused: readonly RefusedCombination[]): string {
  return [...new Set(refused.map((r) => r.by))].map((by) => REFUSED_BY[by]).join(', or ');
}

/**
 * `sweep: 6 combinations (3 × 2), 4 backtests on 2 worker threads (2 not run, listed under the
 * table)`: what is about to run, so a grid larger than meant is seen before the wait.
 */
function gridSize(grid: readonly GridAxis[], backtests: number, refused: number, threads: number): string {
  const sizes = grid.map((axis) => axis.values.length);
  const combinations = `${backtests + refused} combinations${sizes.length > 1 ? ` (${sizes.join(' × ')})` : ''}`;
  const notRun = refused === 0 ? '' : ` (${refused} not run, listed under the table)`;
  return `sweep: ${combinations}, ${backtests} backtest${backtests === 1 ? '' : 's'} on ${threads} worker thread${threads === 1 ? '' : 's'}${notRun}`;
}

/** Says that every combination of the grid was refused, with the first one and why. */
function everyRefused(refused: readonly RefusedCombination[], paths: readonly string[], io: CliIo): ExitCode {
  const first = refused[0];
  const example =
    first === undefined
      ? ''
      : `, e.g. ${describeCombination(first.combination, paths)}: ${first.reasons.join('; ')}`;
  const who = refused.every((r) => r.by === 'params') ? 'the strategy refuses' : 'keel sweep refuses';
  io.stderr.write(`✖ keel sweep: ${who} every combination of the grid${example}
`);
  return EXIT.BAD_CONFIG_OR_USAGE;
}

/** `fast=10 slow=8` of a combination: each axis's value under its path. */
function describeCombination(combination: readonly string[], paths: readonly string[]): string {
  return paths.map((path) => `${path}=${axisValue(combination, path)}`).join(' ');
}

/**
 * Whether any source the sweep's backtests replay is synthetic, as each backtest's result tells:
 * a recording by its header, an OHLCV CSV entry by its `synthetic` flag.
 */
async function anySynthetic(
  loaded: LoadedConfig,
  recordings: readonly string[] | undefined,
): Promise<boolean> {
  const flags = await Promise.all(
    backtestSources(loaded, recordings).map(async (source) =>
      typeof source === 'string' ? (await readSessionHeader(source)).synthetic : source.synthetic === true,
    ),
  );
  return flags.some((synthetic) => synthetic);
}

/**
 * Runs the sweep while SIGINT, SIGTERM and SIGHUP stop it (the rows finished so far are kept); a second
 * signal finds no handler and ends the process at once.
 */
async function runUntilSignal(
  run: (signal: AbortSignal) => Promise<SweepRow[]>,
): Promise<{ readonly rows: SweepRow[]; readonly signal?: StopSignal }> {
  const stop = new AbortController();
  const signals = watchStartUpSignals(true);
  signals.arrived.then(() => stop.abort());
  try {
    const rows = await run(stop.signal);
    const received = signals.received;
    return received === undefined ? { rows } : { rows, signal: received };
  } finally {
    signals.end();
  }
}

/** ` (reason; other reason)`: why a metric is n/a in the rows, each reason once; empty when none is known. */
function whyNa(rows: readonly SweepRow[], metric: string): string {
  const reasons = new Set(rows.flatMap((row) => row.notDefined?.[metric] ?? []));
  return reasons.size === 0 ? '' : ` (${[...reasons].join('; ')})`;
}

/**
 * Under the table: each row whose intents were denied (the first few), each setup warning (⚠) and
 * each note on normal venue behaviour (no ⚠, as the report files it), once with its row count:
 * copies that differ only in their numbers, dates and times are one, their ranges shown.
 */
function notes(rows: readonly SweepRow[], paths: readonly string[]): string[] {
  const denied = rows.filter((row) => row.denial !== undefined);
  const lines = denied
    .slice(0, DENIALS_NAMED)
    .map((row) => `⚠ ${describeCombination(row.combination, paths)}: ${row.denial}`);
  if (denied.length > DENIALS_NAMED)
    lines.push(`⚠ and ${denied.length - DENIALS_NAMED} more rows with denied intents (the denied column)`);
  const counted = (texts: (row: SweepRow) => readonly string[], mark: string): void => {
    for (const group of groupSweepTexts(rows.map(texts)))
      lines.push(`${mark} in ${group.rows} of ${rows.length} rows: ${group.text}`);
  };
  counted((row) => row.warnings, '⚠');
  counted((row) => row.notes, 'note:');
  return lines;
}

/**
 * `keel sweep <config> --grid ...`: backtests every combination of the grid on worker threads,
 * one result row per combination, sorted by the chosen metric, printed as a table (4 decimals)
 * and written as CSV (full precision). A combination whose strategy threw is named below the
 * table with its first fault, one whose intents were denied with its denials and the first
 * reason; combinations a strategy's own check refused, or whose replay window ends before it
 * starts or misses the recordings, are listed below it too. A window every combination shares
 * that misses the recordings is refused before any backtest runs, as `keel backtest` refuses it. SIGINT, SIGTERM or SIGHUP stops the sweep: the running backtests stop
 * at their next batch and remove their temporary files (see `SweepRunOptions.signal`), and the
 * rows finished so far are printed and written, marked partial.
 * @param loaded - the validated base config (mode backtest)
 * @param options - grid, workers, metric, timeout and output
 * @param io - output streams
 * @returns EXIT.OK, EXIT.BAD_CONFIG_OR_USAGE for an unknown metric (`keel sweep` checks it before
 *   calling this), a missing recording, a `--out` that cannot be written, a replay window that
 *   misses the recordings or a grid whose every combination was refused, EXIT.RUNTIME_FAILURE when a combination's backtest failed or timed out
 *   (after the table, which keeps the other rows and marks it `failed`), EXIT.STRATEGY_FAULT when a
 *   strategy threw in some combination (after the table, with a `faults` column and the first
 *   fault of each such row), EXIT.INTERRUPTED or EXIT.TERMINATED when a signal stopped it (after
 *   the partial table)
 */
export async function sweepCommand(
  loaded: LoadedConfig,
  options: SweepOptions,
  io: CliIo,
): Promise<ExitCode> {
  const recordings = options.recordings?.length === 0 ? undefined : options.recordings;
  const missing =
    recordings === undefined
      ? (await configRecordingProblems(loaded)).map(formatConfigProblem)
      : recordingOptionProblems(recordings, loaded.dir);
  if (missing.length > 0) {
    for (const line of missing) io.stderr.write(`${line}\n`);
    return EXIT.BAD_CONFIG_OR_USAGE;
  }
  const screened = options.combinations ?? gridCombinations(options.grid);
  const paths = options.grid.map((axis) => formatSetPath(axis.path));
  if (screened.length === 0) return everyRefused(options.refused ?? [], paths, io);
  if (options.out !== undefined) {
    const problem = outFileProblem(options.out);
    if (problem !== undefined) {
      io.stderr.write(`✖ keel sweep --out ${options.out}: cannot write there: ${problem}\n`);
      return EXIT.BAD_CONFIG_OR_USAGE;
    }
  }
  // Asked once here, not found by every combination's backtest as it starts (each a failed row).
  let windows: Awaited<ReturnType<typeof screenReplayWindows>>;
  try {
    windows = await screenReplayWindows({
      base: loaded,
      sets: options.sets ?? [],
      axes: options.grid.map((axis) => axis.path),
      combinations: screened,
      ...(recordings === undefined ? {} : { recordings }),
    });
  } catch (error) {
    io.stderr.write(`✖ keel sweep: ${(error as Error).message}\n`);
    return isBadInputFile(error) ? EXIT.BAD_CONFIG_OR_USAGE : EXIT.RUNTIME_FAILURE;
  }
  if (!windows.ok) {
    io.stderr.write(`${formatConfigProblem(replayWindowProblem(loaded, windows.missed))}\n`);
    return EXIT.BAD_CONFIG_OR_USAGE;
  }
  const combinations = windows.runnable;
  const refused = [...(options.refused ?? []), ...windows.refused];
  if (combinations.length === 0) return everyRefused(refused, paths, io);
  const cpus = availableParallelism();
  if (options.workers > cpus)
    io.stderr.write(
      `⚠ --workers ${options.workers} is more than the ${cpus} CPUs this machine offers: the backtests share them and run no faster\n`,
    );
  const threads = sweepThreads(options.workers, combinations.length);
  io.stderr.write(`${gridSize(options.grid, combinations.length, refused.length, threads)}\n`);
  const started = performance.now();
  let outcome: Awaited<ReturnType<typeof runUntilSignal>>;
  const progress = sweepProgress(io.stderr, combinations.length);
  try {
    outcome = await runUntilSignal((signal) =>
      runSweep({
        file: loaded.file,
        sets: options.sets ?? [],
        ...(recordings === undefined ? {} : { recordings: recordings.map((path) => resolve(path)) }),
        combinations,
        workers: options.workers,
        signal,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        onRow: (_row, done) => progress.update(done),
      }),
    );
    progress.stop();
  } catch (error) {
    progress.stop();
    // A combination's config problems are located sentences that carry their own ✖ already.
    const message = (error as Error).message;
    io.stderr.write(`${message.startsWith('✖ ') ? message : `✖ keel sweep: ${message}`}\n`);
    return EXIT.RUNTIME_FAILURE;
  }
  const { rows } = outcome;
  // A signal that came after the last row finished stopped nothing.
  const stoppedBy = rows.length < combinations.length ? outcome.signal : undefined;
  const stoppedCode = stoppedBy === undefined ? EXIT.INTERRUPTED : signalExitCode(stoppedBy);
  const partial =
    stoppedBy === undefined
      ? ''
      : `partial: ${rows.length} of ${combinations.length} backtests (stopped by ${stoppedBy})`;
  if (stoppedBy !== undefined && rows.length === 0) {
    io.stderr.write(`✖ keel sweep: stopped by ${stoppedBy} before any backtest finished; no table\n`);
    return stoppedCode;
  }
  let sorted: SweepRow[];
  try {
    sorted = sortRows(rows, options.metric);
  } catch (error) {
    io.stderr.write(`✖ ${(error as Error).message}\n`);
    return EXIT.BAD_CONFIG_OR_USAGE;
  }
  const faulted = sorted.filter((row) => row.faults.length > 0);
  const failed = sorted.filter((row) => row.error !== undefined);
  const { header, shown, csvHeader, csv, footnotes } = sweepTable(sorted, paths, options.metric);
  const widths = header.map((h, i) => Math.max(h.length, ...shown.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ');
  const synthetic = (await anySynthetic(loaded, recordings)) ? ' (SYNTHETIC data)' : '';
  const ran = stoppedBy === undefined ? combinations.length : rows.length;
  io.stdout.write(
    `${[line(header), ...shown.map(line), ...footnotes].join('\n')}\n${ran}${refused.length > 0 ? ` of ${combinations.length + refused.length}` : ''} combinations${synthetic} on ${threads} worker(s) in ${((performance.now() - started) / 1000).toFixed(1)} s, sorted by ${options.metric}, ${lowerIsBetter(options.metric) ? 'lowest' : 'highest'} first\n`,
  );
  if (partial !== '') io.stdout.write(`⚠ ${partial}\n`);
  if (rows.every((row) => (row.metrics[options.metric] ?? null) === null))
    io.stdout.write(
      `⚠ ${options.metric} is n/a in every row${whyNa(rows, options.metric)}, so the rows keep the grid's order\n`,
    );
  if (refused.length > 0) {
    io.stdout.write(
      `⚠ ${refused.length} of ${refused.length + combinations.length} combinations not run, ${refusedBy(refused)}:\n`,
    );
    for (const { combination, reasons } of refused)
      io.stdout.write(`  ${describeCombination(combination, paths)}: ${reasons.join('; ')}\n`);
  }
  for (const note of notes(sorted, paths)) io.stdout.write(`${note}\n`);
  for (const row of faulted) {
    const where = describeCombination(row.combination, paths);
    io.stdout.write(
      `✖ ${where}: ${row.faults[0]}${row.faults.length > 1 ? ` (and ${row.faults.length - 1} more)` : ''}\n`,
    );
  }
  for (const row of failed)
    io.stdout.write(`✖ ${describeCombination(row.combination, paths)}: its backtest failed: ${row.error}\n`);
  if (options.out !== undefined) {
    // A stopped sweep's rows go beside --out, so a file at --out always holds a whole grid; each
    // file is written aside and moved in place, so a failed write (a full disk) leaves the previous one whole.
    const out = partial === '' ? options.out : partialTablePath(options.out);
    try {
      await writeTextFile(
        out,
        [csvHeader, ...csv].map((r) => `${r.map(csvField).join(',')}\n`),
      );
      // A whole grid's table supersedes the partial one an earlier stopped sweep left beside it.
      if (partial === '') await rm(partialTablePath(options.out), { force: true });
    } catch (error) {
      io.stderr.write(`✖ keel sweep: ${(error as Error).message}\n`);
      return EXIT.RUNTIME_FAILURE;
    }
    io.stdout.write(`table: ${out}${partial === '' ? '' : ` (${partial})`}\n`);
  }
  if (stoppedBy !== undefined) return stoppedCode;
  if (failed.length > 0) return EXIT.RUNTIME_FAILURE;
  return faulted.length > 0 ? EXIT.STRATEGY_FAULT : EXIT.OK;
}

/**
 * Where a stopped sweep writes its partial table: `--out` with `.partial` before its extension
 * (`grid.csv` -> `grid.partial.csv`).
 * @param out - the `--out` path
 * @returns the partial table's path
 */
export function partialTablePath(out: string): string {
  const ext = extname(out);
  return `${out.slice(0, out.length - ext.length)}.partial${ext}`;
}
