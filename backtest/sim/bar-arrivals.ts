import type { BarEvent } from '../../core/model/index.ts';
import { type LatencySpec, longestViewDelay } from './latency-model.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimAlgo, SimState } from './sim-state.ts';
import { inSessionDuring } from './trading-hours.ts';

/** The longest delay a latency leg draws, ms. */
function longest(leg: LatencySpec): number {
  return leg.fixedMs + leg.jitterMs;
}

/**
 * The latest arrival at which an order still meets a bar from its open: the bar's open time, or
 * when the venue received the sym's previous bar if that was later, plus the longest round trip
 * of a reaction to it (the strategies see that bar, or a fill it made, after the market-data or
 * User Data delay, and their order reaches the venue after the order-entry delay). So an order
 * sent on the previous bar's close meets this bar's open, as "market orders fill at the next
 * bar's open" says, whatever the latency; one received later (sent from a timer inside the bar,
 * or on a later event) was not there when the bar opened, and waits for the next bar of its sym.
 * The order-entry delay counts the one a paper venue applied before submitting (`upstreamOrderEntry`).
 * Keel's choice: a bar cannot say when inside it a price came, so an order arriving inside it
 * meets none of its prices. With zero latency and bars received at their close, the cutoff is the
 * bar's open itself.
 * @param state - the venue
 * @param bar - the closed bar about to be matched
 * @param previousRecvTs - receive time of the sym's previous matched bar (−Infinity for none)
 * @returns epoch ms: orders and algo orders received after it sit this bar out
 */
export function arrivalCutoff(state: SimState, bar: BarEvent, previousRecvTs: number): number {
  const latency = state.opts.latency;
  const seen = longestViewDelay(latency);
  const entry = longest(latency.orderEntry) + longest(state.opts.upstreamOrderEntry);
  return Math.max(bar.openTime, previousRecvTs) + seen + entry;
}

/**
 * What of a sym sits a bar out: what the venue received after the bar's cutoff, and a US equity's
 * working orders whose session the bar misses. Held conditional orders and algo orders watch every
 * bar, in session or not (the order a trigger releases waits for its session: `workOrder`).
 */
export interface LateArrivals {
  /** Late orders and algo orders: held, waiting and algo ones are skipped, resting ones set aside. */
  readonly items: ReadonlySet<SimOrder | SimAlgo>;
  /** Late resting orders taken off the book for the bar, in book order, to be put back after. */
  readonly setAside: readonly SimOrder[];
}

const NONE: LateArrivals = { items: new Set(), setAside: [] };

/**
 * Finds what of a sym the venue received after a bar's cutoff (its terms, for an amended or
 * replaced one), and which working orders of a US equity trade outside the bar's span ({@link inSessionDuring}),
 * and takes those resting orders off the book for the bar, so the bar's path reaches only what
 * existed when it opened and may trade in it. Put them back with {@link restoreLate}.
 * @param state - the venue
 * @param bar - the bar about to be matched
 * @param cutoff - from {@link arrivalCutoff}
 * @returns the late arrivals
 */
export function setLateAside(state: SimState, bar: BarEvent, cutoff: number): LateArrivals {
  const sym = bar.sym;
  // Nearly always nothing is late: no set is made then.
  let items: Set<SimOrder | SimAlgo> | undefined;
  for (const order of state.liveOrders) {
    if (
      order.sym !== sym ||
      (order.receivedAt <= cutoff && (!order.working || inSessionDuring(state, order, bar)))
    )
      continue;
    items ??= new Set();
    items.add(order);
  }
  for (const algo of state.algos.values()) {
    if (algo.sym !== sym || algo.receivedAt <= cutoff) continue;
    items ??= new Set();
    items.add(algo);
  }
  if (items === undefined) return NONE;
  const setAside: SimOrder[] = [];
  const book = state.books.get(sym);
  if (book !== undefined) {
    for (const order of [...book.buys, ...book.sells]) {
      if (items.has(order) && book.remove(order)) setAside.push(order);
    }
  }
  return { items, setAside };
}

/**
 * Puts the late resting orders back on the book after the bar, those still live.
 * @param state - the venue
 * @param late - from {@link setLateAside}
 */
export function restoreLate(state: SimState, late: LateArrivals): void {
  for (const order of late.setAside) {
    // One the bar's liquidation cancelled is no longer live.
    if (state.liveOrders.has(order)) state.books.get(order.sym)?.add(order);
  }
}
