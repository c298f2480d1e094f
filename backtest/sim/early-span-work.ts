import { BAR_INTERVAL_MS, type BarEvent } from '../../core/model/index.ts';
import type { EarlySpanWork, SimState, VenueWork } from './sim-state.ts';

/** The longest bar interval, ms. */
const LONGEST_BAR_MS = Math.max(...Object.values(BAR_INTERVAL_MS));

function liveBySym(state: SimState): Map<string, number> {
  const live = new Map<string, number>();
  const note = (sym: string, receivedAt: number) => {
    const seen = live.get(sym);
    if (seen === undefined || receivedAt < seen) live.set(sym, receivedAt);
  };
  for (const order of state.liveOrders) note(order.sym, order.receivedAt);
  for (const algo of state.algos.values()) note(algo.sym, algo.receivedAt);
  return live;
}

/**
 * Takes note, on the bar fill model, of work the venue does of its own accord, just before it
 * acts. A bar matches its orders only when the whole bar arrives; an event stamped inside its span
 * that arrives first (a mark, another sym's bar) moves the venue into the span and this work runs
 * on the positions and orders from before the bar's open fills ({@link checkBarSpan} finds it).
 * A no-op on other fill models.
 * @param state - the venue
 * @param at - the venue time the work is stamped at
 * @param sym - the sym it belongs to; undefined for account-wide work
 * @param what - what runs, in words
 * @param endsOrders - whether it may end orders (an expiry, a TIME release, a mark trigger, a
 *   liquidation's cancels), which the bar would have met otherwise
 */
export function noteVenueWork(
  state: SimState,
  at: number,
  sym: string | undefined,
  what: string,
  endsOrders: boolean,
): void {
  const log = state.venueWork;
  if (log === undefined) return;
  log.recent.push({ at, sym, what, endsOrders, live: liveBySym(state) });
}

/**
 * How much venue work was noted so far, so that {@link checkBarSpan} leaves out what a bar's own
 * matching does.
 * @param state - the venue
 * @returns a mark to pass to {@link checkBarSpan}
 */
export function venueWorkNoted(state: SimState): number {
  return state.venueWork?.recent.length ?? 0;
}

/**
 * Called once a bar's open was matched: counts the bar when, before the bar reached the venue and
 * at a venue time inside its span (after its open, up to its end), the venue already did work of
 * the bar's sym or of the whole account while an order or algo order of the sym that takes part
 * in the bar was live, and either the open filled something or that work may have ended such an
 * order. The open should have come first: that work met the positions and orders of before it.
 * @param state - the venue
 * @param bar - the closed bar being matched
 * @param cutoff - orders and algo orders received after it sit the bar out (`arrivalCutoff`)
 * @param noted - {@link venueWorkNoted} before the bar's matching began
 * @param openFilled - whether the bar's open filled anything
 */
export function checkBarSpan(
  state: SimState,
  bar: BarEvent,
  cutoff: number,
  noted: number,
  openFilled: boolean,
): void {
  const log = state.venueWork;
  if (log === undefined) return;
  const recent = log.recent;
  const end = bar.openTime + BAR_INTERVAL_MS[bar.interval];
  let first: VenueWork | undefined;
  for (let i = 0; i < noted && i < recent.length; i++) {
    const work = recent[i] as VenueWork;
    if (work.at <= bar.openTime || work.at > end) continue;
    if (work.sym !== undefined && work.sym !== bar.sym) continue;
    if (!(openFilled || work.endsOrders)) continue;
    if (!((work.live.get(bar.sym) ?? Number.POSITIVE_INFINITY) <= cutoff)) continue;
    if (first === undefined || work.at < first.at) first = work;
  }
  // No bar is longer than a day: older work is out of reach of every bar still to come.
  let stale = 0;
  while (stale < recent.length && (recent[stale] as VenueWork).at <= state.now - LONGEST_BAR_MS) stale++;
  if (stale > 0) recent.splice(0, stale);
  if (first === undefined) return;
  log.found =
    log.found === undefined
      ? { bars: 1, sym: bar.sym, barOpen: bar.openTime, what: first.what, at: first.at }
      : { ...log.found, bars: log.found.bars + 1 };
}

/**
 * The bars {@link checkBarSpan} counted, for a warning.
 * @param state - the venue
 * @returns undefined when none (always on other fill models)
 */
export function earlySpanWorkOf(state: SimState): EarlySpanWork | undefined {
  return state.venueWork?.found;
}
