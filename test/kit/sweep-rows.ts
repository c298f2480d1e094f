import type { SweepRow } from '../../config/sweep/sweep-task.ts';

/**
 * A sweep row of one combination with nothing of note (no fills, faults, denials, liquidations,
 * warnings or notes), as a backtest that traded nothing answers it.
 * @param combination - the combination's `path=value` settings
 * @param more - fields to set instead (metrics, fills, an error...)
 * @returns the row
 */
export function quietSweepRow(combination: readonly string[], more: Partial<SweepRow> = {}): SweepRow {
  return {
    combination,
    metrics: {},
    fills: 0,
    faults: [],
    denied: 0,
    liquidations: 0,
    warnings: [],
    notes: [],
    ...more,
  };
}
