import type {
  BookEvent,
  BookLevel,
  Dec,
  MarketEvent,
  MarketTradeEvent,
  QuoteEvent,
} from '../../core/model/index.ts';
import { asNumber, D, decimalOf, floorToStep } from '../../core/model/index.ts';
import { initialQueue, restingCrosses, sizesAhead, tradeCapacity, trimQueue } from './fill-model.ts';
import { executeFill, finishOrder } from './fills.ts';
import { marginRefusal, refusalDetail } from './margin-check.ts';
import {
  emptySymMarket,
  markPriceOf,
  noteTaken,
  offeredAt,
  type SymMarket,
  type TakenLevel,
} from './market-state.ts';
import { publishOrder } from './publish.ts';
import { RestingBook } from './resting-book.ts';
import { rejectionReason } from './sim-errors.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';

/**
 * The sym's market record, created empty when first needed.
 * @param state - the venue
 * @param sym - the symbol
 * @returns the record
 */
export function marketOf(state: SimState, sym: string): SymMarket {
  let market = state.markets.get(sym);
  if (!market) {
    market = emptySymMarket();
    state.markets.set(sym, market);
  }
  return market;
}

function bookOf(state: SimState, sym: string): RestingBook {
  let book = state.books.get(sym);
  if (!book) {
    book = new RestingBook();
    state.books.set(sym, book);
  }
  return book;
}

/**
 * The liquidity an arriving order can take: the displayed opposite levels; when a recording has no
 * quotes, the last trade's price with its size less what the sim took of it (a trade is one
 * level of liquidity, as an L1 book built from trades would show); inside a bar's path, the last
 * price with unlimited size.
 */
function takeableLevels(state: SimState, order: SimOrder, market: SymMarket): readonly BookLevel[] {
  const levels = order.sign > 0 ? market.asks : market.bids;
  if (!state.inBar && levels.length > 0) return levels;
  if (Number.isNaN(market.last)) return [];
  return [[market.last, state.inBar ? Number.POSITIVE_INFINITY : market.lastQty - market.lastTaken]];
}

/**
 * Whether an order would take liquidity right now (used to reject post-only GTX orders).
 * @param state - the venue
 * @param order - a limit order
 * @returns true when the opposite side (or, on bars, the last close) is at or through its price
 */
export function wouldTake(state: SimState, order: SimOrder): boolean {
  const market = marketOf(state, order.sym);
  const best = takeableLevels(state, order, market)[0];
  if (best === undefined) return false;
  return order.sign > 0 ? best[0] <= order.priceN : best[0] >= order.priceN;
}

/**
 * A hot-path quantity (possibly the result of float arithmetic: sizes minus queue, minus what other
 * orders took) as money: float noise removed at 12 significant digits, floored to the lot size.
 * @param state - the venue
 * @param sym - the symbol (its lot size)
 * @param qty - the number
 * @returns the Decimal quantity, possibly zero
 */
export function lotQty(state: SimState, sym: string, qty: number): Dec {
  const clean = D(Number(qty.toPrecision(12)).toString());
  const lot = state.opts.instruments.get(sym)?.lotSize;
  return lot ? floorToStep(clean, lot) : clean;
}

function tickShift(state: SimState, order: SimOrder, price: number, ticks: number): Dec {
  const base = decimalOf(price);
  if (ticks === 0) return base;
  const tick = state.opts.instruments.get(order.sym)?.tickSize ?? D(0);
  return base.plus(tick.mul(ticks * order.sign));
}

/**
 * Takes liquidity for an arriving (or triggered) order: walks the displayed opposite levels within
 * its limit, each at its own price, offered only what the sim has not taken of the same display
 * already; a market order's remainder beyond the displayed size fills `beyondBookTicks` past the
 * last level, and every market fill pays `slippageTicks` extra. FOK fills all or nothing. Self-trades
 * are not modelled: the levels are the recorded ones, without our own resting orders, so an order
 * may pass our own resting order on the other side and fill against the recorded book (no match
 * with it, no self-trade prevention).
 * @param state - the venue
 * @param order - a working order
 * @returns false when no price is known yet (the order must wait)
 */
function take(state: SimState, order: SimOrder): boolean {
  const model = state.opts.fillModel;
  const market = marketOf(state, order.sym);
  const levels = takeableLevels(state, order, market);
  if (levels.length === 0) return false;
  const isMarket = order.orderType === 'MARKET';
  // Displayed levels remember what was taken; the last-trade level counts it in lastTaken.
  const taken =
    levels === market.asks ? market.asksTaken : levels === market.bids ? market.bidsTaken : undefined;
  const onTrade = taken === undefined && !state.inBar;
  // No closures here: this runs for every taking order, and tsx names each closure it creates.
  if (order.timeInForce === 'FOK') {
    let available = 0;
    for (const [price, qty] of levels) {
      if (!crosses(order, isMarket, price)) break;
      available += offered(model.partialFills, taken, price, qty);
    }
    if (available < order.remainingN) {
      // A market order's remainder would fill beyond the book: FOK refuses that too.
      if (isMarket) finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', 'FOK');
      return true;
    }
  }
  let last: number | undefined;
  for (const [price, qty] of levels) {
    if (order.remainingN <= 0 || !isLiveWorking(order) || !crosses(order, isMarket, price)) break;
    last = price;
    const size = offered(model.partialFills, taken, price, qty);
    if (!(size > 0)) continue;
    const wanted = size >= order.remainingN ? order.qty.minus(order.filled) : lotQty(state, order.sym, size);
    if (!wanted.gt(0)) continue;
    const filled = executeFill(
      state,
      order,
      wanted,
      isMarket ? tickShift(state, order, price, model.slippageTicks) : decimalOf(price),
      'TAKER',
    );
    if (!model.partialFills) continue;
    if (taken !== undefined) noteTaken(taken, price, qty, asNumber(filled));
    else if (onTrade) market.lastTaken += asNumber(filled);
  }
  if (isMarket && last !== undefined && order.remainingN > 0 && isLiveWorking(order)) {
    const beyond = tickShift(state, order, last, model.beyondBookTicks + model.slippageTicks);
    executeFill(state, order, order.qty.minus(order.filled), beyond, 'TAKER');
  }
  return true;
}

/** The size a level offers: what the sim has not taken of it yet, Infinity without partial fills. */
function offered(
  partialFills: boolean,
  taken: readonly TakenLevel[] | undefined,
  price: number,
  qty: number,
): number {
  if (!partialFills) return Number.POSITIVE_INFINITY;
  return taken === undefined ? qty : offeredAt(taken, price, qty);
}

/** Whether a taking order's limit reaches a price (a market order's always does). */
function crosses(order: SimOrder, isMarket: boolean, price: number): boolean {
  return isMarket || (order.sign > 0 ? price <= order.priceN : price >= order.priceN);
}

function isLiveWorking(order: SimOrder): boolean {
  return order.state === 'NEW' || order.state === 'OPEN' || order.state === 'PARTIALLY_FILLED';
}

/**
 * Puts a working order to work: takes what it can, then rests a limit order on the book or cancels
 * an IOC / FAK / FOK remainder. An order that meets no known price (nothing quoted or traded yet on
 * its sym; on bars, a market or IOC order before the next bar) waits and meets the first price as an
 * arriving order would.
 * @param state - the venue
 * @param order - an accepted, working order
 */
export function workOrder(state: SimState, order: SimOrder): void {
  order.working = true;
  const bars = state.opts.fillModel.name === 'bar' && !state.inBar;
  if (bars && order.orderType === 'LIMIT' && !isImmediate(order)) {
    // On bars a limit rests and meets the next bar's path (at the open when it opens through it).
    rest(state, order);
    return;
  }
  if (bars || !take(state, order)) {
    state.waitingMarket.push(order);
    return;
  }
  afterTake(state, order);
}

function isImmediate(order: SimOrder): boolean {
  return order.timeInForce === 'IOC' || order.timeInForce === 'FAK' || order.timeInForce === 'FOK';
}

/** What is left of an order after it took liquidity: cancelled (IOC / FAK / FOK) or resting. */
function afterTake(state: SimState, order: SimOrder): void {
  if (!isLiveWorking(order) || order.orderType === 'MARKET') return;
  if (isImmediate(order)) finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', order.timeInForce);
  else rest(state, order);
}

/**
 * Puts a working limit order on its sym's book. An order that rests with nothing filled moves from
 * NEW to OPEN and says so on the Orders channel, per public venue docs: NEW is the acceptance (the
 * state PLACE_ORDER_ACK carries), an order resting on the book is OPEN (a cancel of one is
 * answered OPEN, CANCEL_PENDING), and the Orders channel pushes each change of an order, so the move
 * is an update of its own, sent when the order rests (with action PLACE: the placement is complete;
 * the docs name no action for it, Keel's choice). An order that fills wholly, is rejected or is
 * cancelled (IOC / FOK remainders) on arrival never rests, so it never shows OPEN; one that filled
 * in part on arrival rests PARTIALLY_FILLED; one re-queued by an amendment keeps its state.
 */
function rest(state: SimState, order: SimOrder): void {
  const market = marketOf(state, order.sym);
  order.crossed = !state.inBar && wouldTake(state, order);
  order.queueAhead = initialQueue(state.opts.fillModel, order, order.sign > 0 ? market.bids : market.asks);
  bookOf(state, order.sym).add(order);
  if (order.state === 'NEW') {
    order.state = 'OPEN';
    publishOrder(state, order, 'PLACE');
  }
}

/**
 * Re-prices an order on the book after an amendment: whatever changed, it loses its time priority
 * and queue place and rests behind the size displayed at its price, as a new order would
 * ("re-sorted in the matching queue", per Binance futures' modify docs).
 * @param state - the venue
 * @param order - a resting order whose price or quantity changed
 */
export function requeue(state: SimState, order: SimOrder): void {
  state.books.get(order.sym)?.remove(order);
  const waiting = state.waitingMarket.indexOf(order);
  if (waiting >= 0) state.waitingMarket.splice(waiting, 1);
  workOrder(state, order);
}

/**
 * Gives the orders waiting for a price on a sym their chance at the current one. A post-only order
 * that would take at that first price is cancelled instead (cancelType GTX); an order placed
 * before its sym had any price, or a market order on bars, has its margin checked at the price it
 * fills at, and is rejected (401023) when it does not fit.
 * @param state - the venue
 * @param sym - the symbol that just got a price
 * @param late - orders that keep waiting: on bars, those received after the bar opened
 */
export function fillWaiting(state: SimState, sym: string, late?: ReadonlySet<unknown>): void {
  if (state.waitingMarket.length === 0) return;
  for (const order of state.waitingMarket.filter((o) => o.sym === sym && !late?.has(o))) {
    const index = state.waitingMarket.indexOf(order);
    state.waitingMarket.splice(index, 1);
    if (!isLiveWorking(order)) continue;
    if (takeableLevels(state, order, marketOf(state, sym)).length === 0) {
      state.waitingMarket.push(order);
      continue;
    }
    if (order.marginAtFill && lacksMarginAtFillPrice(state, order)) continue;
    if (order.timeInForce === 'GTX' && wouldTake(state, order)) {
      finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', 'GTX');
      continue;
    }
    if (order.timeInForce !== 'GTX') take(state, order);
    afterTake(state, order);
  }
}

/**
 * Checks the margin of an order at the price it is about to fill at (placed before its sym had a
 * price, or a market order on bars, checked at the last close and filling at the next open);
 * rejects it when short, as backtesting.py cancels an order the cash cannot pay for.
 */
function lacksMarginAtFillPrice(state: SimState, order: SimOrder): boolean {
  order.marginAtFill = false;
  const refusal = marginRefusal(state, order);
  if (refusal === undefined) return false;
  const price = markPriceOf(marketOf(state, order.sym));
  order.reason = rejectionReason(
    'INSUFFICIENT_MARGIN',
    refusalDetail(refusal, `at ${price} (the price of ${order.sym} when it came to fill)`),
  );
  finishOrder(state, order, 'REJECTED', 'REJECT');
  return true;
}

/**
 * Moves a resting order up its queue (queue model): a trade at its price by an aggressor on the
 * other side eats the queue ahead of it.
 */
function advanceQueue(order: SimOrder, event: MarketTradeEvent): void {
  if (event.price === order.priceN && event.side === (order.sign > 0 ? 'SELL' : 'BUY')) {
    order.queueAhead = Math.max(0, order.queueAhead - event.qty);
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
 * sim took is not offered again until the level's size changes.
 * @param state - the venue
 * @param event - the market event (its sym's market already folded)
 */
export function matchResting(state: SimState, event: MarketEvent): void {
  const book = state.books.get(event.sym);
  if (book === undefined || book.size === 0) return;
  if (event.kind === 'trade') {
    if (book.buys.length > 0) matchTrade(state, book.buys, event);
    if (book.sells.length > 0) matchTrade(state, book.sells, event);
  } else if (event.kind === 'quote' || event.kind === 'book') {
    const market = marketOf(state, event.sym);
    if (book.buys.length > 0)
      matchDisplayed(state, book.buys, event, market.bids, market.asks, market.asksTaken);
    if (book.sells.length > 0)
      matchDisplayed(state, book.sells, event, market.asks, market.bids, market.bidsTaken);
  }
}

function matchTrade(state: SimState, side: SimOrder[], event: MarketTradeEvent): void {
  const model = state.opts.fillModel;
  let consumed = 0;
  while (side.length > 0) {
    const order = side[0] as SimOrder;
    const offered = tradeCapacity(model, order, event) - consumed;
    if (!(offered > 0)) break;
    const wanted =
      offered >= order.remainingN ? order.qty.minus(order.filled) : lotQty(state, order.sym, offered);
    if (!wanted.gt(0)) break;
    const filled = order.crossed
      ? executeFill(state, order, wanted, crossedTradePrice(order, event), 'TAKER')
      : executeFill(state, order, wanted, order.price, 'MAKER');
    consumed += asNumber(filled);
    if (side[0] === order) break;
  }
  // On a trades-only recording the print is also the level an arriving order takes: what the
  // resting orders took of it is gone, as what arriving orders take is (see takeableLevels).
  if (model.partialFills && consumed > 0) marketOf(state, event.sym).lastTaken += consumed;
  // The head was updated while matching; the orders behind it see the same market.
  if (model.name === 'queue') for (let i = 1; i < side.length; i++) advanceQueue(side[i] as SimOrder, event);
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
): void {
  const model = state.opts.fillModel;
  let ahead: Map<SimOrder, number> | undefined;
  if (model.name === 'queue') {
    for (const order of side) trimQueue(order, event);
    ahead = sizesAhead(side, sameSide, opposite, taken);
  }
  // What this event's opposite size already gave the size ahead of an earlier order of ours: the
  // same recorded size is ahead of the orders behind it.
  let served = 0;
  while (side.length > 0) {
    const order = side[0] as SimOrder;
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
      const wanted =
        size >= order.remainingN ? order.qty.minus(order.filled) : lotQty(state, order.sym, size);
      if (!wanted.gt(0)) continue;
      const filled = order.crossed
        ? executeFill(state, order, wanted, decimalOf(price), 'TAKER')
        : executeFill(state, order, wanted, order.price, 'MAKER');
      if (model.partialFills) noteTaken(taken, price, shown, asNumber(filled));
      if (order.remainingN <= 0 || !isLiveWorking(order)) break;
    }
    // A head still on the book has taken every level it reaches: the orders behind reach no more.
    if (side[0] === order) break;
  }
}
