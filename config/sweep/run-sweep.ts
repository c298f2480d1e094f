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
 * through tsx) and returns one row per combination, in grid order.
 * @param options - config, combinations, workers
 * @returns the rows
 * @throws Error from the first combination that failed
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
        const row = (await pool.run({
          file: options.file,
          sets: [...options.sets, ...combination],
        })) as SweepRow;
        options.onRow?.(row, ++done);
        return row;
      }),
    );
  } finally {
    await pool.destroy();
  }
}

/**
 * Sorts rows by a metric, best first: the highest first, the lowest for a metric where less is
 * better ({@link lowerIsBetter}: drawdowns, volatility, costs); rows without the metric's value go last.
 * @param rows - the rows
 * @param metric - a metric name, e.g. `sharpe` or `totalReturn`
 * @returns a new sorted array
 * @throws Error when no row has the metric, naming the ones there are
 */
export function sortRows(rows: readonly SweepRow[], metric: string): SweepRow[] {
  const first = rows[0];
  if (first !== undefined && !(metric in first.metrics))
    throw new Error(
      `--metric ${metric} is not a result metric (metrics: ${Object.keys(first.metrics).join(', ')})`,
    );
  const sign = lowerIsBetter(metric) ? -1 : 1;
  const value = (row: SweepRow) => {
    const v = row.metrics[metric];
    return v === null || v === undefined ? Number.NEGATIVE_INFINITY : sign * v;
  };
  return [...rows].sort((a, b) => value(b) - value(a));
}
