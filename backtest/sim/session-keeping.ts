import { wouldTake } from './matching.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';
import { hasTradingHours, inSession } from './trading-hours.ts';

/**
 * The latest close of each session between a sym's previous market event and this one, epoch ms
 * (NaN: that session did not close meanwhile).
 */
interface ClosedSince {
  readonly regular: number;
  readonly extended: number;
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
  return {
    regular: state.now >= closes.regular ? closes.regular : Number.NaN,
    extended: state.now >= closes.extended ? closes.extended : Number.NaN,
  };
}

/**
 * Whether an order on the book sat through its session's close (it was received, or last
 * amended, before it) and the market now crosses it.
 */
function crossedWhileClosed(state: SimState, order: SimOrder, closed: ClosedSince): boolean {
  return (
    order.receivedAt < (order.extendedTrading ? closed.extended : closed.regular) &&
    !order.ignoresTradingHours &&
    inSession(state, order) &&
    wouldTake(state, order)
  );
}

/**
 * Price priority (the better limit first), then time priority, per side: how an opening cross
 * ranks orders (buys and sells take opposite sides of the market: buys are put first).
 */
function byPriority(a: SimOrder, b: SimOrder): number {
  if (a.side !== b.side) return a.side === 'BUY' ? -1 : 1;
  const better = a.side === 'BUY' ? b.priceN - a.priceN : a.priceN - b.priceN;
  return better === 0 ? a.seq - b.seq : better;
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
 * waiting for the session (`fillWaiting`), ahead of those, since it was there first, ranked among
 * the other returning ones by price, then time, as an opening cross ranks them; a post-only
 * (GTX) one is cancelled there (cancelType GTX), as one arriving would be, rather than rest on a
 * book it crosses. One that does not cross goes back on the book with its queue place. The same
 * holds for an order that stayed on the book because no event came while its session was closed
 * (data of the regular session only): the first event after a close it sat through finds it (an
 * order received or amended after that close did not sit through it).
 * @param state - the venue
 * @param sym - the event's sym
 */
export function keepToSession(state: SimState, sym: string): void {
  if (!hasTradingHours(state, sym)) return;
  const closed = closedSinceLastEvent(state, sym);
  const book = state.books.get(sym);
  if ((book === undefined || book.size === 0) && state.closedSession.length === 0) return;
  const crossing: SimOrder[] = [];
  if (closed !== undefined && book !== undefined) {
    for (const order of [...book.buys, ...book.sells]) {
      if (!crossedWhileClosed(state, order, closed)) continue;
      book.remove(order);
      crossing.push(order);
    }
  }
  for (const order of state.closedSession.filter((o) => o.sym === sym && inSession(state, o))) {
    state.closedSession.splice(state.closedSession.indexOf(order), 1);
    if (wouldTake(state, order)) crossing.push(order);
    else book?.add(order);
  }
  if (crossing.length > 0) state.waitingMarket.unshift(...crossing.sort(byPriority));
  // Every order trades in the regular session: the book needs no look then.
  if (book === undefined || state.equityHours.openAt(state.now, false)) return;
  for (const order of [...book.buys, ...book.sells]) {
    if (inSession(state, order)) continue;
    book.remove(order);
    state.closedSession.push(order);
  }
}
