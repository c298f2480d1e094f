import { asNumber } from '../../../core/model/index.ts';
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
  /**
   * Time of the sample at {@link maxDrawdown} (the first of equal depths); absent when equity
   * never falls (and in result files written before Keel recorded it).
   */
  readonly maxDrawdownTs?: number;
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
 * A non-positive peak counts as no drawdown (there is nothing to fall from). Equity below zero (a
 * liquidation's fee taken from what was left: the simulated venue has no insurance fund) is a
 * drawdown above 100 %, as QuantStats' `equity / peak - 1` gives, so it agrees with the return.
 * @param curve - equity samples in time order
 * @returns one point per sample
 */
export function drawdownSeries(curve: readonly EquitySample[]): DrawdownPoint[] {
  const out: DrawdownPoint[] = [];
  let peak = Number.NEGATIVE_INFINITY;
  for (const sample of curve) {
    const equity = asNumber(sample.equity);
    if (equity > peak) peak = equity;
    out.push({ ts: sample.ts, drawdown: peak > 0 ? Math.max(0, 1 - equity / peak) : 0 });
  }
  return out;
}

/** The figures of {@link DrawdownStats} without the list of periods. */
export type DrawdownFigures = Omit<DrawdownStats, 'periods'>;

/**
 * Drawdown statistics fed one sample at a time, in constant memory (unless asked to keep the
 * periods): the same definitions as {@link drawdownSeries} and {@link drawdownStats}, so a run
 * can measure drawdowns on every equity sample while it keeps only a bounded curve.
 */
export class DrawdownTracker {
  private readonly state = emptyState();
  /** The state before the last sample, which a sample of the same time replaces. */
  private readonly before = emptyState();
  private readonly kept: DrawdownPeriod[] | undefined;

  /** @param keepPeriods - also list every period (memory grows with their number) */
  constructor(keepPeriods = false) {
    this.kept = keepPeriods ? [] : undefined;
  }

  /**
   * Adds the next sample. A sample of the same time as the previous one replaces it, as in the
   * equity curve (the last of a time is the equity at that time), so a moment is never a period.
   * @param ts - its time (not before the previous one)
   * @param equity - its equity
   */
  add(ts: number, equity: number): void {
    // Field by field, not Object.assign: a run adds a sample per event time, and the generic
    // copy of ten fields cost as much as the rest of the tracker.
    if (ts === this.state.lastTs) {
      copyState(this.before, this.state);
      this.kept?.splice(this.state.keptCount);
    } else copyState(this.state, this.before);
    const t = this.state;
    if (Number.isNaN(t.peakTs)) t.peakTs = ts;
    t.lastTs = ts;
    if (equity > t.peak) t.peak = equity;
    const drawdown = t.peak > 0 ? Math.max(0, 1 - equity / t.peak) : 0;
    if (drawdown > 0) {
      if (drawdown > t.depth) {
        t.depth = drawdown;
        t.depthTs = ts;
      }
      return;
    }
    if (t.depth > 0) this.close(ts, true);
    t.depth = 0;
    t.peakTs = ts;
  }

  /** @returns the periods, when kept (the one still open counted as unrecovered) */
  periods(): readonly DrawdownPeriod[] {
    const open = this.openPeriod();
    return [...(this.kept ?? []), ...(open ? [open] : [])];
  }

  /**
   * @returns max and average depth and duration, the period still open counted up to the last
   *   sample, and when the deepest point was
   */
  figures(): DrawdownFigures {
    const t = this.state;
    const open = this.openPeriod();
    const n = t.count + (open ? 1 : 0);
    const depthSum = t.depthSum + (open?.depth ?? 0);
    const duration = open ? open.endTs - open.peakTs : 0;
    const deepestOpen = open !== undefined && open.depth > t.maxDepth;
    const maxDrawdown = deepestOpen ? t.depth : t.maxDepth;
    return {
      maxDrawdown,
      ...(maxDrawdown === 0 ? {} : { maxDrawdownTs: deepestOpen ? t.depthTs : t.maxDepthTs }),
      avgDrawdown: n === 0 ? 0 : depthSum / n,
      maxDrawdownDurationMs: Math.max(t.maxDuration, duration),
      avgDrawdownDurationMs: n === 0 ? 0 : (t.durationSum + duration) / n,
    };
  }

  private openPeriod(): DrawdownPeriod | undefined {
    const t = this.state;
    return t.depth > 0 ? { peakTs: t.peakTs, endTs: t.lastTs, recovered: false, depth: t.depth } : undefined;
  }

  private close(endTs: number, recovered: boolean): void {
    const t = this.state;
    const duration = endTs - t.peakTs;
    t.count++;
    if (t.depth > t.maxDepth) {
      t.maxDepth = t.depth;
      t.maxDepthTs = t.depthTs;
    }
    t.depthSum += t.depth;
    t.maxDuration = Math.max(t.maxDuration, duration);
    t.durationSum += duration;
    this.kept?.push({ peakTs: t.peakTs, endTs, recovered, depth: t.depth });
    t.keptCount++;
  }
}

function emptyState(): TrackerState {
  return {
    peak: Number.NEGATIVE_INFINITY,
    peakTs: Number.NaN,
    depth: 0,
    depthTs: Number.NaN,
    lastTs: Number.NaN,
    count: 0,
    maxDepth: 0,
    maxDepthTs: Number.NaN,
    depthSum: 0,
    maxDuration: 0,
    durationSum: 0,
    keptCount: 0,
  };
}

/** Copies every field of `from` into `to`. */
function copyState(from: TrackerState, to: TrackerState): void {
  to.peak = from.peak;
  to.peakTs = from.peakTs;
  to.depth = from.depth;
  to.depthTs = from.depthTs;
  to.lastTs = from.lastTs;
  to.count = from.count;
  to.maxDepth = from.maxDepth;
  to.maxDepthTs = from.maxDepthTs;
  to.depthSum = from.depthSum;
  to.maxDuration = from.maxDuration;
  to.durationSum = from.durationSum;
  to.keptCount = from.keptCount;
}

/** What a {@link DrawdownTracker} has counted so far. */
interface TrackerState {
  peak: number;
  peakTs: number;
  depth: number;
  /** Time of the deepest sample of the period still open. */
  depthTs: number;
  lastTs: number;
  count: number;
  maxDepth: number;
  /** Time of the deepest sample of the closed periods. */
  maxDepthTs: number;
  depthSum: number;
  maxDuration: number;
  durationSum: number;
  /** Periods listed (when kept). */
  keptCount: number;
}

/**
 * Drawdown periods and their statistics. A period starts at the last sample on the running
 * peak, and lasts until a sample regains the peak (or the run ends, as backtesting.py counts an
 * unrecovered drawdown up to the last bar). Duration = endTs - peakTs; depth = deepest point.
 * A sample back on the peak exactly ends a period, as backtesting.py's dd = 0 does. Where Keel
 * differs (deliberately): a drawdown only the last sample is in is a period here, while
 * backtesting.py lists periods between bars more than one bar apart and so drops it (when it is
 * the only one, its duration figures come out as drawdown fractions, not times); and without a
 * drawdown the average depth and the durations are 0 here, NaN there.
 * @param curve - equity samples in time order
 * @returns max and average drawdown and duration, and the periods
 * @example
 * // equity 100 -> 110 -> 99 -> 120 at t = 0, 1, 2, 3: one period from t=1 to t=3, depth 0.1
 */
export function drawdownStats(curve: readonly EquitySample[]): DrawdownStats {
  const tracker = new DrawdownTracker(true);
  for (const sample of curve) tracker.add(sample.ts, asNumber(sample.equity));
  return { ...tracker.figures(), periods: tracker.periods() };
}
