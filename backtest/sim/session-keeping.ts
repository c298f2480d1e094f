import { wouldTake } from './matching.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';
import { hasTradingHours, inSession } from './trading-hours.ts';

/** Which sessions closed between a sym's previous market event and this one. */
interface ClosedSince {
  readonly regular: boolean;
  readonly extended: boolean;
}

/**
 * Notes this event of a US equity sym and tells which sessions closed since its previous one
 * (data of the regular session only has no event between the close and the next open).
 * @param state - the venue
 * @param sym - the event's sym
 * @returns the closes passed, or undefined when none (or on the sym's first event)
 */
function closedSinceLastEvent(state: SimState, sym: string): ClosedSince | undefined {
  const closes = state.sessionCloses.get(sym);
  if (closes !== undefined && state.now < closes.regular && state.now < closes.extended) return undefined;
  state.sessionCloses.set(sym, state.equityHours.nextCloses(state.now));
  if (closes === undefined) return undefined;
  return { regular: state.now >= closes.regular, extended: state.now >= closes.extended };
}

/** Whether an order on the book sat through its session's close and the market now crosses it. */
function crossedWhileClosed(state: SimState, order: SimOrder, closed: ClosedSince): boolean {
  return (
    (order.extendedTrading ? closed.extended : closed.regular) &&
    !order.ignoresTradingHours &&
    inSession(state, order) &&
    wouldTake(state, order)
  );
}

/**
 * Keeps a US equity's resting orders to their sessions before a market event of its sym is
 * matched: an order whose session closed leaves the book (it keeps its state, queue place and
 * time priority among the orders put aside), and one whose session opened again returns, so it is
 * matched again from the first event of its session. Cancels, expiries and amendments reach an
 * order put aside as they reach one on the book.
 *
 * A returning order that the market crossed while it was away (a buy limit at 189 when the next
 * session opens at 185) meets it as an arriving marketable order does, at the market as a taker,
 * as a venue's opening cross fills it, not at its own price as a maker: it joins the orders
 * waiting for the session (`fillWaiting`), ahead of those, since it was there first; a post-only
 * (GTX) one is cancelled there (cancelType GTX), as one arriving would be, rather than rest on a
 * book it crosses. One that does not cross goes back on the book with its queue place. The same
 * holds for an order that stayed on the book because no event came while its session was closed
 * (data of the regular session only): the first event after a close it sat through finds it.
 * @param state - the venue
 * @param sym - the event's sym
 */
export function keepToSession(state: SimState, sym: string): void {
  if (!hasTradingHours(state, sym)) return;
  const closed = closedSinceLastEvent(state, sym);
  const book = state.books.get(sym);
  if ((book === undefined || book.size === 0) && state.closedSession.length === 0) return;
  let crossing = 0;
  if (closed !== undefined && book !== undefined) {
    for (const order of [...book.buys, ...book.sells]) {
      if (!crossedWhileClosed(state, order, closed)) continue;
      book.remove(order);
      state.waitingMarket.splice(crossing++, 0, order);
    }
  }
  for (const order of state.closedSession.filter((o) => o.sym === sym && inSession(state, o))) {
    state.closedSession.splice(state.closedSession.indexOf(order), 1);
    if (wouldTake(state, order)) state.waitingMarket.splice(crossing++, 0, order);
    else book?.add(order);
  }
  // Every order trades in the regular session: the book needs no look then.
  if (book === undefined || state.equityHours.openAt(state.now, false)) return;
  for (const order of [...book.buys, ...book.sells]) {
    if (inSession(state, order)) continue;
    book.remove(order);
    state.closedSession.push(order);
  }
}
