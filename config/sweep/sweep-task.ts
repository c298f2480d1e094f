import { formatStrategyFault } from '../../backtest/report/index.ts';
import { runConfiguredBacktest } from '../compose/backtest-run.ts';
import { strategySlots } from '../compose/strategy-plugins.ts';
import { formatConfigProblem, loadConfig } from '../loader/index.ts';

/** One combination of a sweep, as sent to a worker thread. */
export interface SweepTask {
  /** The base config file (absolute path). */
  readonly file: string;
  /** `--set` arguments of this combination (the sweep's own `--set`s first). */
  readonly sets: readonly string[];
}

/** One result row: the combination and the metrics of its backtest, as plain numbers. */
export interface SweepRow {
  readonly sets: readonly string[];
  readonly metrics: Readonly<Record<string, number | null>>;
  readonly fills: number;
  /** The strategy faults of its backtest, formatted (empty when no strategy threw). */
  readonly faults: readonly string[];
  /** Why its backtest stopped with an error (its metrics are then empty); absent when it ran. */
  readonly error?: string;
}

function isDecimal(value: unknown): value is { toNumber(): number } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { toNumber?: unknown }).toNumber === 'function'
  );
}

/**
 * Flattens a result's metrics to numbers (Decimals converted, nested groups as `group.key`), so
 * a row crosses the worker boundary and sorts by any metric.
 * @param metrics - the result's metrics
 * @returns the numeric metrics by name
 */
export function numericMetrics(metrics: object): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  const visit = (prefix: string, value: unknown): void => {
    if (value === null || typeof value === 'number') out[prefix] = value;
    else if (isDecimal(value)) out[prefix] = value.toNumber();
    else if (typeof value === 'object' && value !== undefined && !Array.isArray(value))
      for (const [key, inner] of Object.entries(value))
        visit(prefix === '' ? key : `${prefix}.${key}`, inner);
  };
  visit('', metrics);
  return out;
}

/**
 * Runs one combination of a sweep: loads the config with the combination's overrides and
 * backtests it (no result files written; the run's temporary spill files are removed before the
 * row is returned). Runs in a worker thread (see sweep-worker.js) or in-process.
 * @param task - the config and the combination
 * @returns the row
 * @throws Error with the config's located problems when the combination does not validate
 */
export async function runSweepTask(task: SweepTask): Promise<SweepRow> {
  const loaded = loadConfig(task.file, { overrides: task.sets });
  if (!loaded.ok) throw new Error(loaded.problems.map(formatConfigProblem).join('\n'));
  const slots = await strategySlots(loaded);
  if (!slots.ok) throw new Error(slots.problems.map(formatConfigProblem).join('\n'));
  const result = await runConfiguredBacktest(loaded, { slots: slots.slots });
  try {
    return {
      sets: task.sets,
      metrics: numericMetrics(result.metrics),
      fills: result.fills.length,
      faults: (result.faults ?? []).map(formatStrategyFault),
    };
  } finally {
    // The row is all a sweep keeps: the run's spill files go now, not when the worker exits.
    result.dispose?.();
  }
}
