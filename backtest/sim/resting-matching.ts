import type {
  BookEvent,
  BookLevel,
  Dec,
  MarketEvent,
  MarketTradeEvent,
  QuoteEvent,
} from '../../core/model/index.ts';
import { asNumber, decimalOf, isAboveZero } from '../../core/model/index.ts';
import { restingCrosses, sizesAhead, tradeCapacity } from './fill-model.ts';
import { executeFill } from './fills.ts';
import { crosses, lotQty, offered } from './level-fill.ts';
import { noteTaken, offeredAt, type TakenLevel } from './market-state.ts';
import { marketOf } from './matching.ts';
import { isLive } from './order-factory.ts';
import { queueTrade, trimQueue } from './queue-position.ts';
import { remainderOf, type SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';
import { takeFromSwept } from './swept-levels.ts';
import { venueTimeOf } from './venue-time.ts';

/**
 * The index of the first order of a side that the venue had received by `at`, or the side's length
 * when none: an order received later was not there when the event happened, so it does not meet it.
 */
function firstArrived(side: readonly SimOrder[], at: number): number {
  for (let i = 0; i < side.length; i++) if ((side[i] as SimOrder).receivedAt <= at) return i;
  return side.length;
}

/**
 * Moves a resting order up its queue (queue model): a trade at its price by an aggressor on the
 * other side eats the queue ahead of it, after the part of it that went without a print.
 */
function advanceQueue(order: SimOrder, event: MarketTradeEvent): void {
  if (event.price === order.priceN && event.side === (order.sign > 0 ? 'SELL' : 'BUY')) {
    queueTrade(order, event.qty);
  }
}

/**
 * The price a crossed resting order fills at from a trade: the trade's price, never worse than its
 * limit.
 */
function crossedTradePrice(order: SimOrder, event: MarketTradeEvent): Dec {
  const better = order.sign > 0 ? event.price < order.priceN : event.price > order.priceN;
  return better ? decimalOf(event.price) : order.price;
}

/**
 * Matches the resting orders of a sym against a quote, book or trade event with the configured fill
 * model. Orders fill at their own limit price as makers, or, while crossed, at the market's price as
 * takers; an event's size is shared by the orders in price-time priority, and displayed size the
 * sim took is not offered again until the level's size changes. Only the orders the venue had
 * received by `venueTimeOf(event)` meet it: a print from before an order arrived neither fills it
 * nor moves its queue, while a quote or book stamped before it arrived still stood then and meets
 * it.
 * @param state - the venue
 * @param event - the market event (its sym's market already folded)
 */
export function matchResting(state: SimState, event: MarketEvent): void {
  const book = state.books.get(event.sym);
  if (book === undefined || book.size === 0) return;
  const at = venueTimeOf(event);
  if (event.kind === 'trade') {
    if (book.buys.length > 0) matchTrade(state, book.buys, event, true, at);
    if (book.sells.length > 0) matchTrade(state, book.sells, event, false, at);
  } else if (event.kind === 'quote' || event.kind === 'book') {
    const market = marketOf(state, event.sym);
    if (book.buys.length > 0)
      matchDisplayed(state, book.buys, event, market.bids, market.asks, market.asksTaken, at);
    if (book.sells.length > 0)
      matchDisplayed(state, book.sells, event, market.asks, market.bids, market.bidsTaken, at);
  }
}

function matchTrade(
  state: SimState,
  side: SimOrder[],
  event: MarketTradeEvent,
  buys: boolean,
  at: number,
): void {
  const model = state.opts.fillModel;
  const market = marketOf(state, event.sym);
  let consumed = 0;
  let head = firstArrived(side, at);
  while (head < side.length) {
    const order = side[head] as SimOrder;
    const offered = tradeCapacity(model, order, event, market.lastExplained) - consumed;
    if (!(offered > 0)) break;
    const wanted = offered >= order.remainingN ? remainderOf(order) : lotQty(state, order.sym, offered);
    if (!isAboveZero(wanted)) break;
    const filled = order.crossed
      ? executeFill(state, order, wanted, crossedTradePrice(order, event), 'TAKER')
      : executeFill(state, order, wanted, order.price, 'MAKER');
    consumed += asNumber(filled);
    if (side[head] === order) break;
    head = firstArrived(side, at);
  }
  // On a trades-only recording the print is also the level an arriving order takes, and so is a
  // print through the displayed side our orders rest on (the bids for our buys): what the resting
  // orders took of it is gone, as what arriving orders take is (see takeableLevels in matching.ts).
  if (model.partialFills && consumed > 0) {
    market.lastTaken += consumed;
    if (event.price === (buys ? market.bidsSweptAt : market.asksSweptAt))
      takeFromSwept(market, !buys, consumed);
  }
  // The head was updated while matching; the orders behind it see the same market.
  if (model.name !== 'queue') return;
  for (let i = head + 1; i < side.length; i++) {
    const order = side[i] as SimOrder;
    if (order.receivedAt <= at) advanceQueue(order, event);
  }
}

/**
 * Matches one side of the resting book against the displayed opposite levels, best first, each
 * level at most once for its size not yet taken. A crossed order takes each level at the level's
 * own price as a taker (as on arrival); the others fill at their limit as makers when the model's
 * rule lets the level reach them, under the queue model after the size displayed ahead of them on
 * a locked or crossed book (`sizesAhead`), which is noted as taken too, so the same display does
 * not serve it twice.
 */
function matchDisplayed(
  state: SimState,
  side: SimOrder[],
  event: QuoteEvent | BookEvent,
  sameSide: readonly BookLevel[],
  opposite: readonly BookLevel[],
  taken: TakenLevel[],
  at: number,
): void {
  const model = state.opts.fillModel;
  let ahead: Map<SimOrder, number> | undefined;
  if (model.name === 'queue') {
    for (const order of side) if (order.receivedAt <= at) trimQueue(order, event);
    ahead = sizesAhead(side, sameSide, opposite, taken);
  }
  // What this event's opposite size already gave the size ahead of an earlier order of ours: the
  // same recorded size is ahead of the orders behind it.
  let served = 0;
  let head = firstArrived(side, at);
  while (head < side.length) {
    const order = side[head] as SimOrder;
    const best = opposite[0];
    // Still crossed while the best opposite level reaches its limit, even if the sim took it all.
    if (order.crossed && (best === undefined || !crosses(order, false, best[0]))) order.crossed = false;
    let skip = Math.max(0, (ahead?.get(order) ?? 0) - served);
    for (const [price, shown] of opposite) {
      if (!(order.crossed ? crosses(order, false, price) : restingCrosses(model, order, price))) break;
      let size = offered(model.partialFills, taken, price, shown);
      if (skip > 0) {
        const left = offeredAt(taken, price, shown);
        const first = Math.min(skip, left);
        skip -= first;
        served += first;
        noteTaken(taken, price, shown, first);
        if (skip > 0 || first >= left) continue;
        size -= first;
      }
      if (!(size > 0)) continue;
      const wanted = size >= order.remainingN ? remainderOf(order) : lotQty(state, order.sym, size);
      if (!isAboveZero(wanted)) continue;
      const filled = order.crossed
        ? executeFill(state, order, wanted, decimalOf(price), 'TAKER')
        : executeFill(state, order, wanted, order.price, 'MAKER');
      if (model.partialFills) noteTaken(taken, price, shown, asNumber(filled));
      if (order.remainingN <= 0 || !isLive(order)) break;
    }
    // A head still on the book has taken every level it reaches: the orders behind reach no more.
    if (side[head] === order) break;
    head = firstArrived(side, at);
  }
}
