import type { BookLevel, Dec, MarketEvent } from '../../core/model/index.ts';
import { D, decimalOf, floorToStep } from '../../core/model/index.ts';
import { initialQueue, restingCapacity } from './fill-model.ts';
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
  const crosses = (price: number) =>
    isMarket || (order.sign > 0 ? price <= order.priceN : price >= order.priceN);
  const sizeOf = (qty: number) => (model.partialFills ? qty : Number.POSITIVE_INFINITY);
  if (order.timeInForce === 'FOK') {
    let available = 0;
    for (const [price, qty] of levels) {
      if (!crosses(price)) break;
      available += sizeOf(qty);
    }
    if (!isMarket && available < order.remainingN) return true;
  }
  let last: number | undefined;
  for (const [price, qty] of levels) {
    if (order.remainingN <= 0 || !isLiveWorking(order) || !crosses(price)) break;
    last = price;
    const size = sizeOf(qty);
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

function isLiveWorking(order: SimOrder): boolean {
  return order.state === 'NEW' || order.state === 'OPEN' || order.state === 'PARTIALLY_FILLED';
}

/**
 * Puts a working order to work: takes what it can, then rests a limit order on the book, cancels an
 * IOC / FAK / FOK remainder, or parks a market order until a price is known (bar model: the next
 * bar's open).
 * @param state - the venue
 * @param order - an accepted, working order
 */
export function workOrder(state: SimState, order: SimOrder): void {
  order.working = true;
  const barWait = state.opts.fillModel.name === 'bar' && !state.inBar;
  const took = barWait ? false : take(state, order);
  if (!isLiveWorking(order)) return;
  if (order.orderType === 'MARKET') {
    if (!took) state.waitingMarket.push(order);
    return;
  }
  if (order.timeInForce === 'IOC' || order.timeInForce === 'FAK' || order.timeInForce === 'FOK') {
    if (barWait) {
      // On bars an IOC order meets the market at the next bar's open only.
      state.waitingMarket.push(order);
      return;
    }
    finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', order.timeInForce);
    return;
  }
  rest(state, order);
}

function rest(state: SimState, order: SimOrder): void {
  const market = marketOf(state, order.sym);
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
  workOrder(state, order);
}

/**
 * Gives parked market (and bar-model IOC) orders of a sym their chance at the current price.
 * @param state - the venue
 * @param sym - the symbol that just got a price
 */
export function fillWaiting(state: SimState, sym: string): void {
  if (state.waitingMarket.length === 0) return;
  for (const order of state.waitingMarket.filter((o) => o.sym === sym)) {
    const index = state.waitingMarket.indexOf(order);
    state.waitingMarket.splice(index, 1);
    if (!isLiveWorking(order)) continue;
    if (!take(state, order)) {
      state.waitingMarket.push(order);
    } else if (isLiveWorking(order) && order.orderType === 'LIMIT') {
      finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', order.timeInForce);
    }
  }
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
  const model = state.opts.fillModel;
  for (const side of [book.buys, book.sells]) {
    let consumed = 0;
    while (side.length > 0) {
      const order = side[0] as SimOrder;
      const offered = restingCapacity(model, order, event) - consumed;
      if (!(offered > 0)) break;
      const wanted =
        offered >= order.remainingN ? order.qty.minus(order.filled) : lotQty(state, order.sym, offered);
      if (!wanted.gt(0)) break;
      const filled = executeFill(state, order, wanted, order.price, 'MAKER');
      consumed += filled.toNumber();
      if (side[0] === order) break;
    }
    if (model.name === 'queue' && event.kind !== 'trade') {
      // Trim the queue of the orders behind the head too (the head was trimmed while matching).
      for (let i = 1; i < side.length; i++)
        restingCapacity({ ...model, partialFills: true }, side[i] as SimOrder, event);
    }
  }
}
