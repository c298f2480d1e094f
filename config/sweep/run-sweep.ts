import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { SpillDirectory, UNBEATEN_REASONS } from '../../backtest/report/index.ts';
import { MAX_TIMER_MS } from '../compose/timer-limit.ts';
import type { OverrideArg } from '../loader/index.ts';
import { lowerIsBetter, sweepMetricNames } from './sweep-metrics.ts';
import type { SweepRow, SweepTask } from './sweep-task.ts';

/** Inputs of a sweep. */
export interface SweepRunOptions {
  /** The base config file (absolute path). */
  readonly file: string;
  /** Overrides applied to every combination (`--set`, `--from`, `--to`). */
  readonly sets: readonly OverrideArg[];
  /** Recordings replacing the config's in every combination (absolute paths); absent = the config's. */
  readonly recordings?: readonly string[];
  /** The combinations, each as its `--set` arguments. */
  readonly combinations: readonly (readonly string[])[];
  /** Worker threads asked for: {@link sweepThreads} of them start. */
  readonly workers: number;
  /**
   * Longest one backtest may run, counted from its start in a worker; one that takes longer
   * gives a failed row and its worker is terminated. Absent: no limit.
   */
  readonly timeoutMs?: number;
  /**
   * Stops the sweep when aborted: each running backtest is cancelled at its next batch and removes
   * its temporary files (spill files, the event cache it was building), combinations still queued
   * are dropped; a worker whose backtest has not stopped {@link CANCEL_GRACE_MS} later is terminated.
   */
  readonly signal?: AbortSignal;
  /** Called as each row completes (progress). */
  readonly onRow?: (row: SweepRow, done: number) => void;
  /** Where the combinations run; default a piscina pool of {@link workers} worker threads. */
  readonly pool?: SweepPool;
}

/** The part of a piscina pool a sweep uses. */
export type SweepPool = Pick<Piscina, 'run' | 'destroy'>;

/**
 * How long a cancelled sweep waits for a worker's backtest to stop by itself (it does at its next
 * batch of events, and then removes its temporary files) before it terminates the worker.
 */
export const CANCEL_GRACE_MS = 5000;

function failedRow(combination: readonly string[], error: string): SweepRow {
  return {
    combination,
    metrics: {},
    fills: 0,
    faults: [],
    denied: 0,
    liquidations: 0,
    warnings: [],
    notes: [],
    error,
  };
}

/**
 * Runs one combination on the pool, with its own timeout: a worker says on a port when the
 * backtest starts (time spent queued or starting a worker does not count). A stopped sweep says
 * so on another port: the worker's backtest stops and cleans up, or the worker is terminated
 * after {@link CANCEL_GRACE_MS}.
 * @returns its row; undefined when the sweep was stopped before it finished
 */
async function runCombination(
  pool: SweepPool,
  options: SweepRunOptions,
  combination: readonly string[],
  stops: Set<() => void>,
  spillIn: string,
): Promise<SweepRow | undefined> {
  const task: SweepTask = {
    file: options.file,
    sets: options.sets,
    ...(options.recordings === undefined ? {} : { recordings: options.recordings }),
    combination,
    spillIn,
  };
  const timeout = new AbortController();
  const force = new AbortController();
  const signal = AbortSignal.any([timeout.signal, force.signal]);
  // Told to the worker when the sweep stops (a task not started yet finds it there as it starts).
  const cancel = options.signal === undefined ? undefined : new MessageChannel();
  let grace: NodeJS.Timeout | undefined;
  const stop = (): void => {
    cancel?.port1.postMessage('cancel');
    grace = setTimeout(() => force.abort(), CANCEL_GRACE_MS);
  };
  if (options.signal?.aborted === true) stop();
  else if (cancel !== undefined) stops.add(stop);
  // A timeout past what a Node timer holds (about 24.8 days) would fire at once: it is none.
  const limited = options.timeoutMs !== undefined && options.timeoutMs <= MAX_TIMER_MS;
  const channel = limited ? new MessageChannel() : undefined;
  let timer: NodeJS.Timeout | undefined;
  channel?.port1.once('message', () => {
    timer = setTimeout(() => timeout.abort(), options.timeoutMs);
  });
  try {
    const ports = [
      ...(channel === undefined ? [] : [channel.port2]),
      ...(cancel === undefined ? [] : [cancel.port2]),
    ];
    const message = {
      task,
      ...(channel === undefined ? {} : { started: channel.port2 }),
      ...(cancel === undefined ? {} : { cancel: cancel.port2 }),
    };
    return (await pool.run(message, {
      signal,
      ...(ports.length === 0 ? {} : { transferList: ports }),
    })) as SweepRow;
  } catch (error) {
    if (options.signal?.aborted === true) return undefined;
    if (timeout.signal.aborted)
      return failedRow(
        combination,
        `it ran longer than --timeout ${(options.timeoutMs ?? 0) / 1000} s and its worker was stopped`,
      );
    return failedRow(combination, error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
    clearTimeout(grace);
    stops.delete(stop);
    channel?.port1.close();
    cancel?.port1.close();
  }
}

/**
 * Backtests every combination on a piscina pool of worker threads (each worker runs TypeScript
 * through tsx) and returns one row per combination, in grid order. A combination whose backtest
 * stops with an error (a window or warm-up the data cannot serve, a worker that exited, a
 * timeout) gives a row with that `error` and no metrics: the other combinations' rows are kept.
 * Each worker is handed the next combination when its last one ends, so only the running
 * combinations exist as tasks. When `signal` aborts, the combinations not finished yet are dropped
 * and the rows finished so far returned. The backtests make their spill directories inside one of
 * the sweep's own (`keel-sweep-<pid>-…` in the temporary folder), removed as the sweep ends, whether
 * it finished, failed or was stopped: with it goes what a backtest stopped with its worker left.
 * @param options - config, combinations, workers, timeout and stop signal
 * @returns the rows of the finished combinations: every one unless `signal` stopped the sweep
 * @throws Error (from fs) when the sweep's spill directory cannot be made; what `onRow` threw
 */
export async function runSweep(options: SweepRunOptions): Promise<SweepRow[]> {
  const spill = new SpillDirectory('keel-sweep-');
  try {
    return await runOnPool(options, spill.path);
  } finally {
    // After the pool is destroyed: no worker writes in it any more.
    spill.dispose();
  }
}

/** {@link runSweep} with the sweep's spill directory made. */
async function runOnPool(options: SweepRunOptions, spillIn: string): Promise<SweepRow[]> {
  const threads = sweepThreads(options.workers, options.combinations.length);
  const pool =
    options.pool ??
    new Piscina({
      filename: new URL('./sweep-worker.js', import.meta.url).href,
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: 1000,
    });
  let done = 0;
  // One listener stops every combination not finished (one each would trip Node's leak warning).
  const stops = new Set<() => void>();
  const stopAll = (): void => {
    for (const stop of stops) stop();
  };
  options.signal?.addEventListener('abort', stopAll, { once: true });
  // One lane per worker takes the next combination when its last one ends: a combination's task
  // and ports exist only while it runs (20 000 made up front held about 137 MB of channels).
  const rows: (SweepRow | undefined)[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < options.combinations.length && options.signal?.aborted !== true) {
      const index = next++;
      const row = await runCombination(
        pool,
        options,
        options.combinations[index] as readonly string[],
        stops,
        spillIn,
      );
      rows[index] = row;
      if (row !== undefined) options.onRow?.(row, ++done);
    }
  };
  try {
    await Promise.all(Array.from({ length: threads }, lane));
    return rows.filter((row): row is SweepRow => row !== undefined);
  } finally {
    options.signal?.removeEventListener('abort', stopAll);
    await pool.destroy();
  }
}

/**
 * How many worker threads a sweep starts: `--workers`, but no more than there are combinations
 * (piscina starts its `minThreads` at once, and each thread loads Keel and the plugins: about
 * 100 MB that a thread with nothing to run would hold for nothing).
 * @param workers - the threads asked for
 * @param combinations - how many combinations run
 * @returns at least 1
 */
export function sweepThreads(workers: number, combinations: number): number {
  return Math.max(1, Math.min(workers, combinations));
}

/** Where a row ranks before its metric: clean runs, then runs a strategy fault cut short, then failed ones. */
function standing(row: SweepRow): number {
  if (row.error !== undefined) return 2;
  return row.faults.length > 0 ? 1 : 0;
}

/**
 * Sorts rows by a metric, best first: the highest first, the lowest for a metric where less is
 * better ({@link lowerIsBetter}: drawdowns, volatility, costs). A row whose metric is n/a because
 * the run is unbeaten on it (`UNBEATEN_REASONS`: no losing trades for profitFactor, no drawdown
 * for calmar...) ranks as the best value; one n/a for any other reason (no trades, a run too
 * short to annualize) goes last. Rows whose strategy threw come after every clean row (a run
 * halted early can look good on its metrics), and rows whose backtest failed after those.
 * @param rows - the rows
 * @param metric - a metric name, e.g. `sharpe` or `totalReturn`
 * @returns a new sorted array
 * @throws Error when no row that ran has the metric, naming the ones there are
 */
export function sortRows(rows: readonly SweepRow[], metric: string): SweepRow[] {
  const first = rows.find((row) => row.error === undefined);
  // A run that never fell has no maxDrawdownTs: a metric a sweep knows is n/a there, not unknown.
  if (first !== undefined && !(metric in first.metrics) && !sweepMetricNames().includes(metric))
    throw new Error(
      `--metric ${metric} is not a result metric (metrics: ${Object.keys(first.metrics).join(', ')})`,
    );
  const sign = lowerIsBetter(metric) ? -1 : 1;
  const value = (row: SweepRow) => {
    const v = row.metrics[metric];
    if (v !== null && v !== undefined) return sign * v;
    const reason = row.notDefined?.[metric];
    return reason !== undefined && UNBEATEN_REASONS.has(reason)
      ? Number.POSITIVE_INFINITY
      : Number.NEGATIVE_INFINITY;
  };
  const better = (a: number, b: number) => (a === b ? 0 : b > a ? 1 : -1);
  return [...rows].sort((a, b) => standing(a) - standing(b) || better(value(a), value(b)));
}
