import type { BacktestRunOptions } from './backtest-run-options.ts';

/**
 * Refuses the options a backtest cannot run with, before it opens or takes anything (its gate
 * included): a window end that is not a time, a warm-up period or grid that is not a positive
 * length, a batch size under 1, an equity sample step that is not positive, fewer than 2 equity
 * buckets. Each would otherwise fail later (after the gate was claimed, or with a message that does
 * not name it), or run wrong without a word.
 * @param options - the run's options
 * @throws RangeError naming the first bad option and its value
 */
export function checkRunOptions(options: BacktestRunOptions): void {
  const { window, warmUp, batchSize, equitySampleMs, equityBuckets } = options;
  for (const end of ['from', 'to'] as const) {
    const value = window?.[end];
    if (value !== undefined && !Number.isFinite(value))
      throw new RangeError(`backtest: window.${end} must be a time (epoch ms), got ${value}`);
  }
  if (warmUp !== undefined) {
    for (const field of ['periodMs', 'alignMs'] as const) {
      const value = warmUp[field];
      if (value !== undefined && !(Number.isFinite(value) && value > 0))
        throw new RangeError(`backtest: warmUp.${field} must be a positive number of ms, got ${value}`);
    }
  }
  if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize >= 1))
    throw new RangeError(`backtest: batchSize must be a whole number of at least 1, got ${batchSize}`);
  if (equitySampleMs !== undefined && !(equitySampleMs > 0))
    throw new RangeError(`backtest: equitySampleMs must be a positive number of ms, got ${equitySampleMs}`);
  if (equityBuckets !== undefined && !(equityBuckets >= 2))
    throw new RangeError(`backtest: equityBuckets must be at least 2, got ${equityBuckets}`);
}
