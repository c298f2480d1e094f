import { BAR_INTERVAL_MS, type BarEvent, type BarInterval } from '../../core/model/index.ts';
import type { BarCoverage, SimState } from './sim-state.ts';

/** A sym whose recordings held bars of several intervals, some of which were not matched. */
export interface BarOverlap {
  readonly sym: string;
  /** The intervals whose bars were matched, finest first. */
  readonly matched: readonly BarInterval[];
  /** The intervals some bars of which were passed over, finest first, with how many of each. */
  readonly passedOver: ReadonlyArray<readonly [BarInterval, number]>;
}

function coverageOf(state: SimState, sym: string): BarCoverage {
  let coverage = state.barCoverage.get(sym);
  if (coverage === undefined) {
    coverage = {
      finestMs: Number.POSITIVE_INFINITY,
      until: Number.NEGATIVE_INFINITY,
      lastRecvTs: Number.NEGATIVE_INFINITY,
      matched: new Set(),
      passedOver: new Map(),
    };
    state.barCoverage.set(sym, coverage);
  }
  return coverage;
}

/**
 * Whether a closed bar drives matching, and if so takes note of it. When the recordings hold
 * bars of several intervals for one sym (1m and 5m klines), orders meet the finest: a bar coarser
 * than one already matched, opening before the matched bars end, is passed over, as its range
 * mixes prices from before and after what the finer bars already showed (a 5m bar's low at minute
 * 1 would fill a limit placed at minute 4). Keel's choice: the finest bars are the honest record
 * of when a price came. A coarser bar opening where no finer bar reached (the finer data ended)
 * is matched. Bars arrive in receive order, so the finer bars inside a coarse one come first.
 * @param state - the venue
 * @param bar - a closed bar
 * @returns the previous matched bar's receive time (−Infinity for the first), or undefined when
 *   the bar is passed over
 */
export function takeBar(state: SimState, bar: BarEvent): number | undefined {
  const coverage = coverageOf(state, bar.sym);
  const ms = BAR_INTERVAL_MS[bar.interval];
  if (ms > coverage.finestMs && bar.openTime < coverage.until) {
    coverage.passedOver.set(bar.interval, (coverage.passedOver.get(bar.interval) ?? 0) + 1);
    return undefined;
  }
  const previous = coverage.lastRecvTs;
  coverage.finestMs = Math.min(coverage.finestMs, ms);
  coverage.until = Math.max(coverage.until, bar.openTime + ms);
  coverage.lastRecvTs = Math.max(coverage.lastRecvTs, bar.recvTs);
  coverage.matched.add(bar.interval);
  return previous;
}

/**
 * The syms some bars of which were passed over by {@link takeBar}, in sym order.
 * @param state - the venue
 * @returns one entry per such sym
 */
export function barOverlapsOf(state: SimState): BarOverlap[] {
  const byLength = (a: BarInterval, b: BarInterval) => BAR_INTERVAL_MS[a] - BAR_INTERVAL_MS[b];
  return [...state.barCoverage.entries()]
    .filter(([, coverage]) => coverage.passedOver.size > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([sym, coverage]) => ({
      sym,
      matched: [...coverage.matched].sort(byLength),
      passedOver: [...coverage.passedOver.entries()].sort(([a], [b]) => byLength(a, b)),
    }));
}
