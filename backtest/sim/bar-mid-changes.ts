import { reactionAllowance } from './bar-arrivals.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimAlgo, SimState } from './sim-state.ts';

/** A cancel or amendment held back until its sym's next bar is matched. */
interface MidBarChange {
  /** When the venue received it. */
  readonly arrival: number;
  readonly target: SimOrder | SimAlgo;
  /** Carries it out (looking its target up again: it may have filled or triggered meanwhile). */
  readonly apply: () => void;
}

/** The held changes of each venue, by sym, in arrival order. */
const heldChanges = new WeakMap<SimState, Map<string, MidBarChange[]>>();

/** Whether the sym's bar path decides when the target fills or triggers (not a mark-price algo on a sym with marks). */
function barDecides(state: SimState, target: SimOrder | SimAlgo): boolean {
  if ('algoOrderType' in target)
    return (
      target.triggerType !== 'MarkPrice' || Number.isNaN(state.markets.get(target.sym)?.mark ?? Number.NaN)
    );
  return target.working;
}

/**
 * Holds back a cancel or amendment that may have arrived inside the sym's next bar, on the bar
 * fill model: one received after the previous bar's receipt plus the reaction allowance of
 * {@link reactionAllowance}, for an order or algo order working then (or one with a change already
 * held, to keep its changes in order). Whether it came after that bar's open is known only when the
 * bar arrives; the order meets the bar on its old terms if it did ({@link settleMidBarChanges}).
 * Keel's choice, the conservative one: which part of the bar came before the change is unknown.
 * @param state - the venue, at the change's arrival
 * @param target - the live order or open algo order the change is for
 * @param apply - carries the change out, later
 * @returns true when the change was held back (the caller does nothing now)
 */
export function holdMidBarChange(state: SimState, target: SimOrder | SimAlgo, apply: () => void): boolean {
  if (state.opts.fillModel.name !== 'bar') return false;
  const bySym = heldChanges.get(state);
  const held = bySym?.get(target.sym);
  const queued = held?.some((change) => change.target === target) ?? false;
  if (!queued) {
    const lastBar = state.barCoverage.get(target.sym)?.lastRecvTs ?? Number.NEGATIVE_INFINITY;
    if (state.now <= lastBar + reactionAllowance(state) || !barDecides(state, target)) return false;
  }
  const change = { arrival: state.now, target, apply };
  if (held !== undefined) held.push(change);
  else if (bySym !== undefined) bySym.set(target.sym, [change]);
  else heldChanges.set(state, new Map([[target.sym, [change]]]));
  return true;
}

/**
 * Carries out the held changes of a bar's sym that arrived by the bar's cutoff (before it opened,
 * at their arrival time), so the bar meets their new terms. Call before matching the bar.
 * @param state - the venue, at the bar's receipt
 * @param sym - the bar's sym
 * @param cutoff - the bar's arrival cutoff
 */
export function applyChangesBeforeBar(state: SimState, sym: string, cutoff: number): void {
  const held = heldChanges.get(state)?.get(sym);
  if (held === undefined || held[0] === undefined || held[0].arrival > cutoff) return;
  const now = state.now;
  while (held[0] !== undefined && held[0].arrival <= cutoff) {
    const change = held.shift() as MidBarChange;
    state.now = change.arrival;
    change.apply();
  }
  state.now = now;
}

/**
 * Carries out the rest of a bar's sym's held changes once the bar is matched, at its close: the
 * order met the bar on its old terms, and a change to one the bar filled or triggered is refused
 * as for any final order; the new terms meet the bars that open after.
 * @param state - the venue, at the bar's close
 * @param sym - the bar's sym
 */
export function settleMidBarChanges(state: SimState, sym: string): void {
  const bySym = heldChanges.get(state);
  const held = bySym?.get(sym);
  if (bySym === undefined || held === undefined) return;
  bySym.delete(sym);
  for (const change of held) change.apply();
}
