import {
  type BacktestResult,
  denialSummary,
  firstDenialReason,
  formatStrategyFault,
  notDefinedReasons,
  warningsAndNotes,
} from '../../backtest/report/index.ts';
import { runConfiguredBacktest } from '../compose/backtest-run.ts';
import { strategySlots } from '../compose/strategy-plugins.ts';
import { formatConfigProblem, loadConfig, type OverrideArg } from '../loader/index.ts';

/** One combination of a sweep, as sent to a worker thread. */
export interface SweepTask {
  /** The base config file (absolute path). */
  readonly file: string;
  /** The sweep's own overrides (`--set`, `--from`, `--to`), applied first. */
  readonly sets: readonly OverrideArg[];
  /** Recordings replacing the config's (`--recording`, absolute paths); absent = the config's. */
  readonly recordings?: readonly string[];
  /** The combination's `--set` arguments, one per grid axis, applied after `sets`. */
  readonly combination: readonly string[];
  /** The sweep's spill directory, where the backtest makes its own; absent = the OS temporary directory. */
  readonly spillIn?: string;
}

/** One result row: the combination and the metrics of its backtest, as plain numbers. */
export interface SweepRow {
  /** The combination's `--set` arguments, one per grid axis: the values its backtest ran with. */
  readonly combination: readonly string[];
  readonly metrics: Readonly<Record<string, number | null>>;
  /**
   * Why each metric that is null is not defined (`whyNotDefined`), by name: what a single run's
   * report says beside its n/a. Absent when the backtest failed.
   */
  readonly notDefined?: Readonly<Record<string, string>>;
  readonly fills: number;
  /** The strategy faults of its backtest, formatted (empty when no strategy threw). */
  readonly faults: readonly string[];
  /** Intents the risk gate, the kernel or the venue denied (0 when the backtest failed). */
  readonly denied: number;
  /** The denials counted by check and the first one's reason; absent when none was denied. */
  readonly denial?: string;
  /** Forced liquidations of the account (0 when the backtest failed). */
  readonly liquidations: number;
  /** The run's setup warnings (a watched sym the recordings lack, ...), one sentence each. */
  readonly warnings: readonly string[];
  /** The run's notes on normal venue behaviour (post-only orders rejected as they would take), as its report files them. */
  readonly notes: readonly string[];
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

/** How many intents a result denied, and `4 intents denied (risk maxPosition 4); the first: <reason>`. */
function denials(result: BacktestResult): Pick<SweepRow, 'denied' | 'denial'> {
  const summary = denialSummary(result);
  if (summary === undefined || result.denials === undefined) return { denied: 0 };
  return { denied: result.denials.length, denial: `${summary}; the first: ${firstDenialReason(result)}` };
}

/**
 * Runs one combination of a sweep: loads the config with the combination's overrides and
 * backtests it (no result files written; the run's temporary spill files are removed before the
 * row is returned). Runs in a worker thread (see sweep-worker.js) or in-process.
 * @param task - the config and the combination
 * @param signal - cancels the backtest (the sweep stopped), see `BacktestRunOptions.signal`
 * @returns the row
 * @throws Error with the config's located problems when the combination does not validate; the
 *   signal's reason when it aborted
 */
export async function runSweepTask(task: SweepTask, signal?: AbortSignal): Promise<SweepRow> {
  signal?.throwIfAborted();
  const loaded = loadConfig(task.file, { overrides: [...task.sets, ...task.combination] });
  if (!loaded.ok) throw new Error(loaded.problems.map(formatConfigProblem).join('\n'));
  const slots = await strategySlots(loaded);
  if (!slots.ok) throw new Error(slots.problems.map(formatConfigProblem).join('\n'));
  const result = await runConfiguredBacktest(loaded, {
    slots: slots.slots,
    ...(task.recordings === undefined ? {} : { recordings: task.recordings }),
    ...(signal === undefined ? {} : { signal }),
    ...(task.spillIn === undefined ? {} : { spillIn: task.spillIn }),
  });
  try {
    return {
      combination: task.combination,
      metrics: numericMetrics(result.metrics),
      notDefined: notDefinedReasons(result.metrics),
      fills: result.fills.length,
      faults: (result.faults ?? []).map(formatStrategyFault),
      ...denials(result),
      liquidations: result.liquidations?.length ?? 0,
      ...warningsAndNotes(result.meta.warnings ?? [], result.orders),
    };
  } finally {
    // The row is all a sweep keeps: the run's spill files go now, not when the worker exits.
    result.dispose?.();
  }
}
