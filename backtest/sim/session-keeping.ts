import { wouldTake } from './matching.ts';
import type { SimState } from './sim-state.ts';
import { hasTradingHours, inSession } from './trading-hours.ts';

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
 * waiting for the session (`fillWaiting`), ahead of those, since it was there first. One that does
 * not cross goes back on the book with its queue place, and so does a post-only (GTX) one, which
 * never takes.
 * @param state - the venue
 * @param sym - the event's sym
 */
export function keepToSession(state: SimState, sym: string): void {
  const book = state.books.get(sym);
  if ((book === undefined || book.size === 0) && state.closedSession.length === 0) return;
  if (!hasTradingHours(state, sym)) return;
  let crossing = 0;
  for (const order of state.closedSession.filter((o) => o.sym === sym && inSession(state, o))) {
    state.closedSession.splice(state.closedSession.indexOf(order), 1);
    if (order.timeInForce !== 'GTX' && wouldTake(state, order))
      state.waitingMarket.splice(crossing++, 0, order);
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
