import { Piscina } from 'piscina';
import { lowerIsBetter } from './sweep-metrics.ts';
import type { SweepRow } from './sweep-task.ts';

/** Inputs of a sweep. */
export interface SweepRunOptions {
  /** The base config file (absolute path). */
  readonly file: string;
  /** `--set` arguments applied to every combination. */
  readonly sets: readonly string[];
  /** The combinations, each as its `--set` arguments. */
  readonly combinations: readonly (readonly string[])[];
  /** Worker threads. */
  readonly workers: number;
  /** Called as each row completes (progress). */
  readonly onRow?: (row: SweepRow, done: number) => void;
}

/**
 * Backtests every combination on a piscina pool of worker threads (each worker runs TypeScript
 * through tsx) and returns one row per combination, in grid order. A combination whose backtest
 * stops with an error (a window or warm-up the data cannot serve, a worker that exited) gives a
 * row with that `error` and no metrics: the other combinations' rows are kept.
 * @param options - config, combinations, workers
 * @returns the rows
 */
export async function runSweep(options: SweepRunOptions): Promise<SweepRow[]> {
  const pool = new Piscina({
    filename: new URL('./sweep-worker.js', import.meta.url).href,
    minThreads: options.workers,
    maxThreads: options.workers,
    idleTimeout: 1000,
  });
  let done = 0;
  try {
    return await Promise.all(
      options.combinations.map(async (combination) => {
        const sets = [...options.sets, ...combination];
        const row = await (pool.run({ file: options.file, sets }) as Promise<SweepRow>).catch(
          (error: unknown): SweepRow => ({
            sets,
            metrics: {},
            fills: 0,
            faults: [],
            error: error instanceof Error ? error.message : String(error),
          }),
        );
        options.onRow?.(row, ++done);
        return row;
      }),
    );
  } finally {
    await pool.destroy();
  }
}

/** Where a row ranks before its metric: clean runs, then runs a strategy fault cut short, then failed ones. */
function standing(row: SweepRow): number {
  if (row.error !== undefined) return 2;
  return row.faults.length > 0 ? 1 : 0;
}

/**
 * Sorts rows by a metric, best first: the highest first, the lowest for a metric where less is
 * better ({@link lowerIsBetter}: drawdowns, volatility, costs); rows without the metric's value go
 * last. Rows whose strategy threw come after every clean row (a run halted early can look good on
 * its metrics), and rows whose backtest failed after those.
 * @param rows - the rows
 * @param metric - a metric name, e.g. `sharpe` or `totalReturn`
 * @returns a new sorted array
 * @throws Error when no row that ran has the metric, naming the ones there are
 */
export function sortRows(rows: readonly SweepRow[], metric: string): SweepRow[] {
  const first = rows.find((row) => row.error === undefined);
  if (first !== undefined && !(metric in first.metrics))
    throw new Error(
      `--metric ${metric} is not a result metric (metrics: ${Object.keys(first.metrics).join(', ')})`,
    );
  const sign = lowerIsBetter(metric) ? -1 : 1;
  const value = (row: SweepRow) => {
    const v = row.metrics[metric];
    return v === null || v === undefined ? Number.NEGATIVE_INFINITY : sign * v;
  };
  return [...rows].sort((a, b) => standing(a) - standing(b) || value(b) - value(a));
}
