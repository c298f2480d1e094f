import type { EquitySample } from '../equity-sample.ts';

/** One point of the drawdown series: how far equity is below its running peak. */
export interface DrawdownPoint {
  readonly ts: number;
  /** 1 - equity / running peak, in [0, 1] (0.1 = 10 % below the peak). */
  readonly drawdown: number;
}

/** One drawdown period: from the peak before it to the sample that regains the peak. */
export interface DrawdownPeriod {
  /** Time of the peak the period fell from. */
  readonly peakTs: number;
  /** Time equity regained the peak, or the last sample when it never did. */
  readonly endTs: number;
  /** Whether equity regained the peak before the end of the run. */
  readonly recovered: boolean;
  /** Deepest drawdown in the period, in (0, 1]. */
  readonly depth: number;
}

/** Drawdown statistics over the whole run (backtesting.py's conventions). */
export interface DrawdownStats {
  /** max over t of drawdown(t), in [0, 1]; 0 when equity never falls. */
  readonly maxDrawdown: number;
  /** mean depth of the drawdown periods; 0 without any. */
  readonly avgDrawdown: number;
  /** longest endTs - peakTs of the periods, milliseconds; 0 without any. */
  readonly maxDrawdownDurationMs: number;
  /** mean endTs - peakTs of the periods, milliseconds; 0 without any. */
  readonly avgDrawdownDurationMs: number;
  readonly periods: readonly DrawdownPeriod[];
}

/**
 * The drawdown series of an equity curve: drawdown(t) = 1 - equity(t) / max(equity(s), s <= t).
 * A non-positive peak counts as no drawdown (there is nothing to fall from).
 * @param curve - equity samples in time order
 * @returns one point per sample
 */
export function drawdownSeries(curve: readonly EquitySample[]): DrawdownPoint[] {
  const out: DrawdownPoint[] = [];
  let peak = Number.NEGATIVE_INFINITY;
  for (const sample of curve) {
    const equity = sample.equity.toNumber();
    if (equity > peak) peak = equity;
    out.push({ ts: sample.ts, drawdown: peak > 0 ? Math.min(1, Math.max(0, 1 - equity / peak)) : 0 });
  }
  return out;
}

/**
 * Drawdown periods and their statistics. A period starts at the last sample on the running
 * peak, and lasts until a sample regains the peak (or the run ends, as backtesting.py counts an
 * unrecovered drawdown up to the last bar). Duration = endTs - peakTs; depth = deepest point.
 * @param curve - equity samples in time order
 * @returns max and average drawdown and duration, and the periods
 * @example
 * // equity 100 -> 110 -> 99 -> 120 at t = 0, 1, 2, 3: one period from t=1 to t=3, depth 0.1
 */
export function drawdownStats(curve: readonly EquitySample[]): DrawdownStats {
  const series = drawdownSeries(curve);
  const periods: DrawdownPeriod[] = [];
  let peakTs = series[0]?.ts ?? 0;
  let depth = 0;
  for (const point of series) {
    if (point.drawdown > 0) {
      depth = Math.max(depth, point.drawdown);
      continue;
    }
    if (depth > 0) periods.push({ peakTs, endTs: point.ts, recovered: true, depth });
    depth = 0;
    peakTs = point.ts;
  }
  const last = series[series.length - 1];
  if (depth > 0 && last !== undefined) periods.push({ peakTs, endTs: last.ts, recovered: false, depth });

  let maxDrawdown = 0;
  let depthSum = 0;
  let maxDuration = 0;
  let durationSum = 0;
  for (const p of periods) {
    maxDrawdown = Math.max(maxDrawdown, p.depth);
    depthSum += p.depth;
    maxDuration = Math.max(maxDuration, p.endTs - p.peakTs);
    durationSum += p.endTs - p.peakTs;
  }
  const n = periods.length;
  return {
    maxDrawdown,
    avgDrawdown: n === 0 ? 0 : depthSum / n,
    maxDrawdownDurationMs: maxDuration,
    avgDrawdownDurationMs: n === 0 ? 0 : durationSum / n,
    periods,
  };
}
