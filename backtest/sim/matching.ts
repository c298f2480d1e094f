import type { BookLevel, Dec, MarketEvent } from '../../core/model/index.ts';
import { asNumber, D, decimalOf, floorToStep } from '../../core/model/index.ts';
import { initialQueue, restingCapacity, trimQueue } from './fill-model.ts';
import { executeFill, finishOrder } from './fills.ts';
import { emptySymMarket, type SymMarket } from './market-state.ts';
import { RestingBook } from './resting-book.ts';
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
 * The liquidity an arriving order can take: the displayed opposite levels, or inside a bar's path
 * (and when a recording has no quotes) the last price with unlimited size.
 */
function takeableLevels(state: SimState, order: SimOrder, market: SymMarket): readonly BookLevel[] {
  const levels = order.sign > 0 ? market.asks : market.bids;
  if (!state.inBar && levels.length > 0) return levels;
  return Number.isNaN(market.last) ? [] : [[market.last, Number.POSITIVE_INFINITY]];
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
 * its limit; a market order's remainder beyond the displayed size fills `beyondBookTicks` past the
 * last level, and every market fill pays `slippageTicks` extra. FOK fills all or nothing.
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
  // No closures here: this runs for every taking order, and tsx names each closure it creates.
  if (order.timeInForce === 'FOK') {
    let available = 0;
    for (const [price, qty] of levels) {
      if (!crosses(order, isMarket, price)) break;
      available += model.partialFills ? qty : Number.POSITIVE_INFINITY;
    }
    if (!isMarket && available < order.remainingN) return true;
  }
  let last: number | undefined;
  for (const [price, qty] of levels) {
    if (order.remainingN <= 0 || !isLiveWorking(order) || !crosses(order, isMarket, price)) break;
    last = price;
    const size = model.partialFills ? qty : Number.POSITIVE_INFINITY;
    const wanted = size >= order.remainingN ? order.qty.minus(order.filled) : lotQty(state, order.sym, size);
    if (!wanted.gt(0)) continue;
    executeFill(
      state,
      order,
      wanted,
      isMarket ? tickShift(state, order, price, model.slippageTicks) : decimalOf(price),
      'TAKER',
    );
  }
  if (isMarket && last !== undefined && order.remainingN > 0 && isLiveWorking(order)) {
    const beyond = tickShift(state, order, last, model.beyondBookTicks + model.slippageTicks);
    executeFill(state, order, order.qty.minus(order.filled), beyond, 'TAKER');
  }
  return true;
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

function rest(state: SimState, order: SimOrder): void {
  const market = marketOf(state, order.sym);
  order.crossed = !state.inBar && wouldTake(state, order);
  order.queueAhead = initialQueue(state.opts.fillModel, order, order.sign > 0 ? market.bids : market.asks);
  bookOf(state, order.sym).add(order);
}

/**
 * Re-prices an order on the book after an amendment (it loses its time priority and queue place).
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
 * that would take at that first price is cancelled instead (cancelType GTX).
 * @param state - the venue
 * @param sym - the symbol that just got a price
 */
export function fillWaiting(state: SimState, sym: string): void {
  if (state.waitingMarket.length === 0) return;
  for (const order of state.waitingMarket.filter((o) => o.sym === sym)) {
    const index = state.waitingMarket.indexOf(order);
    state.waitingMarket.splice(index, 1);
    if (!isLiveWorking(order)) continue;
    if (takeableLevels(state, order, marketOf(state, sym)).length === 0) {
      state.waitingMarket.push(order);
      continue;
    }
    if (order.timeInForce === 'GTX' && wouldTake(state, order)) {
      finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', 'GTX');
      continue;
    }
    if (order.timeInForce !== 'GTX') take(state, order);
    afterTake(state, order);
  }
}

/**
 * Moves a resting order up its queue (queue model): a trade at its price by an aggressor on the
 * other side eats the queue ahead of it; a quote or book trims the queue to the displayed size.
 */
function advanceQueue(order: SimOrder, event: MarketEvent): void {
  if (event.kind !== 'trade') {
    trimQueue(order, event);
    return;
  }
  if (event.price === order.priceN && event.side === (order.sign > 0 ? 'SELL' : 'BUY')) {
    order.queueAhead = Math.max(0, order.queueAhead - event.qty);
  }
}

/**
 * The price a crossed resting order fills at: the market's (trade price, or best opposite quote),
 * never worse than its limit.
 */
function crossedPrice(order: SimOrder, event: MarketEvent): Dec {
  let market = order.priceN;
  if (event.kind === 'trade') market = event.price;
  else if (event.kind === 'quote') market = order.sign > 0 ? event.ask : event.bid;
  else if (event.kind === 'book')
    market = (order.sign > 0 ? event.asks[0]?.[0] : event.bids[0]?.[0]) ?? order.priceN;
  const better = order.sign > 0 ? market < order.priceN : market > order.priceN;
  return better ? decimalOf(market) : order.price;
}

/**
 * Matches the resting orders of a sym against a quote, book or trade event with the configured fill
 * model. Orders fill at their own limit price as makers; an event's size is shared by the orders
 * in price-time priority.
 * @param state - the venue
 * @param event - the market event (its sym's market already folded)
 */
export function matchResting(state: SimState, event: MarketEvent): void {
  const book = state.books.get(event.sym);
  if (book === undefined || book.size === 0) return;
  if (book.buys.length > 0) matchSide(state, book.buys, event);
  if (book.sells.length > 0) matchSide(state, book.sells, event);
}

function matchSide(state: SimState, side: SimOrder[], event: MarketEvent): void {
  const model = state.opts.fillModel;
  let consumed = 0;
  while (side.length > 0) {
    const order = side[0] as SimOrder;
    const offered = restingCapacity(model, order, event) - consumed;
    if (!(offered > 0)) {
      if ((event.kind === 'quote' || event.kind === 'book') && consumed === 0) order.crossed = false;
      break;
    }
    const wanted =
      offered >= order.remainingN ? order.qty.minus(order.filled) : lotQty(state, order.sym, offered);
    if (!wanted.gt(0)) break;
    const filled = order.crossed
      ? executeFill(state, order, wanted, crossedPrice(order, event), 'TAKER')
      : executeFill(state, order, wanted, order.price, 'MAKER');
    consumed += asNumber(filled);
    if (side[0] === order) break;
  }
  // The head was updated while matching; the orders behind it see the same market.
  if (model.name === 'queue') for (let i = 1; i < side.length; i++) advanceQueue(side[i] as SimOrder, event);
}
