import type { BookLevel } from '../../core/model/index.ts';
import { asNumber, isAboveZero } from '../../core/model/index.ts';
import { initialQueue } from './fill-model.ts';
import { executeFill, finishOrder } from './fills.ts';
import { crosses, lotQty, offered, tickShift } from './level-fill.ts';
import { marginRefusal, refusalDetail } from './margin-check.ts';
import { emptySymMarket, markPriceOf, noteTaken, priceDecimalOf, type SymMarket } from './market-state.ts';
import { isLive } from './order-factory.ts';
import { publishOrder } from './publish.ts';
import { isUnsizedQuoteOrder, refusedUnsizable, type TakingPlace } from './quote-sizing.ts';
import { RestingBook } from './resting-book.ts';
import { rejectionReason } from './sim-errors.ts';
import { remainderOf, type SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';
import { sweptLevels, takeFromSwept } from './swept-levels.ts';
import { inSession, inSessionDuring } from './trading-hours.ts';

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
 * The liquidity an arriving order can take: the displayed opposite levels, starting at the price of
 * a print through them since the last display (`sweptLevels`); when a recording has no quotes, the
 * last trade's price with its size less what the sim took of it (a trade is one level of
 * liquidity, as an L1 book built from trades would show); inside a bar's path, the last price with
 * unlimited size.
 */
function takeableLevels(
  state: SimState,
  order: Pick<SimOrder, 'sign'>,
  market: SymMarket,
): readonly BookLevel[] {
  const buy = order.sign > 0;
  const levels = buy ? market.asks : market.bids;
  if (state.matchingBar === undefined && levels.length > 0) {
    return buy
      ? sweptLevels(levels, market.asksSweptAt, market.asksSweptLeft, true)
      : sweptLevels(levels, market.bidsSweptAt, market.bidsSweptLeft, false);
  }
  if (Number.isNaN(market.last)) return [];
  return [
    [
      market.last,
      state.matchingBar !== undefined ? Number.POSITIVE_INFINITY : market.lastQty - market.lastTaken,
    ],
  ];
}

/**
 * Where an order would take liquidity now: its sym's market and {@link takeableLevels}.
 * @param state - the venue
 * @param order - the order
 * @returns the market and the levels
 */
export function takingPlace(state: SimState, order: Pick<SimOrder, 'sym' | 'sign'>): TakingPlace {
  const market = marketOf(state, order.sym);
  return { market, levels: takeableLevels(state, order, market) };
}

/**
 * Whether an order would take liquidity right now (used to reject post-only GTX orders).
 * @param state - the venue
 * @param order - a limit order, or its sym and side with the price it would have
 * @returns true when the opposite side (or, on bars, the last close) is at or through its price
 */
export function wouldTake(state: SimState, order: Pick<SimOrder, 'sym' | 'sign' | 'priceN'>): boolean {
  const market = marketOf(state, order.sym);
  const best = takeableLevels(state, order, market)[0];
  if (best === undefined) return false;
  return order.sign > 0 ? best[0] <= order.priceN : best[0] >= order.priceN;
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
  const buy = order.sign > 0;
  // Displayed levels remember what was taken; the level of a print through them counts it in its
  // side's swept size, the last-trade level in lastTaken.
  const displayed = state.matchingBar === undefined && (buy ? market.asks : market.bids).length > 0;
  const taken = displayed ? (buy ? market.asksTaken : market.bidsTaken) : undefined;
  const sweptAt = displayed ? (buy ? market.asksSweptAt : market.bidsSweptAt) : Number.NaN;
  const onTrade = !displayed && state.matchingBar === undefined;
  // No closures here: this runs for every taking order, and tsx names each closure it creates.
  if (order.timeInForce === 'FOK') {
    let available = 0;
    for (const [price, qty] of levels) {
      if (!crosses(order, isMarket, price)) break;
      available += offered(model.partialFills, price === sweptAt ? undefined : taken, price, qty);
    }
    if (available < order.remainingN) {
      // A market order's remainder would fill beyond the book: FOK refuses that too.
      if (isMarket) finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', 'FOK');
      return true;
    }
  }
  let last: number | undefined;
  for (const [price, qty] of levels) {
    if (order.remainingN <= 0 || !isLive(order) || !crosses(order, isMarket, price)) break;
    last = price;
    const size = offered(model.partialFills, price === sweptAt ? undefined : taken, price, qty);
    if (!(size > 0)) continue;
    const wanted = size >= order.remainingN ? remainderOf(order) : lotQty(state, order.sym, size);
    if (!isAboveZero(wanted)) continue;
    const filled = executeFill(
      state,
      order,
      wanted,
      isMarket ? tickShift(state, market, order, price, model.slippageTicks) : priceDecimalOf(market, price),
      'TAKER',
    );
    if (!model.partialFills) continue;
    if (price === sweptAt) takeFromSwept(market, buy, asNumber(filled));
    else if (taken !== undefined) noteTaken(taken, price, qty, asNumber(filled));
    else if (onTrade) market.lastTaken += asNumber(filled);
  }
  if (isMarket && last !== undefined && order.remainingN > 0 && isLive(order)) {
    const beyond = tickShift(state, market, order, last, model.beyondBookTicks + model.slippageTicks);
    executeFill(state, order, remainderOf(order), beyond, 'TAKER');
  }
  return true;
}

/**
 * Puts a working order to work: takes what it can, then rests a limit order on the book or cancels
 * an IOC / FAK / FOK remainder. An order that meets no known price (nothing quoted or traded yet on
 * its sym; on bars, a market or IOC order before the next bar), or a US equity order outside its
 * session, waits and meets the first price it may trade at as an arriving order would.
 * @param state - the venue
 * @param order - an accepted, working order
 */
export function workOrder(state: SimState, order: SimOrder): void {
  order.working = true;
  if (outOfSession(state, order)) {
    state.waitingMarket.push(order);
    return;
  }
  const bars = state.opts.fillModel.name === 'bar' && state.matchingBar === undefined;
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

/**
 * Whether a US equity order may not trade yet: off bars, outside its session now; on bars, when a
 * trigger of the bar being matched released it and its session misses that bar (an after-hours
 * bar fires a regular-session stop, whose order waits for the session). Between bars it may: a
 * bar's span is checked against the session when the bar is matched.
 */
function outOfSession(state: SimState, order: SimOrder): boolean {
  if (state.opts.fillModel.name !== 'bar') return !inSession(state, order);
  return state.matchingBar !== undefined && !inSessionDuring(state, order, state.matchingBar);
}

function isImmediate(order: SimOrder): boolean {
  return order.timeInForce === 'IOC' || order.timeInForce === 'FAK' || order.timeInForce === 'FOK';
}

/** What is left of an order after it took liquidity: cancelled (IOC / FAK / FOK) or resting. */
function afterTake(state: SimState, order: SimOrder): void {
  if (!isLive(order) || order.orderType === 'MARKET') return;
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
  order.crossed = state.matchingBar === undefined && wouldTake(state, order);
  order.queueAhead = initialQueue(state.opts.fillModel, order, order.sign > 0 ? market.bids : market.asks);
  // A shrink seen ahead of its old place explains nothing of the prints at its new one.
  order.queueUnexplained = 0;
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
  const closed = state.closedSession.indexOf(order);
  if (closed >= 0) state.closedSession.splice(closed, 1);
  workOrder(state, order);
}

/**
 * Gives the orders waiting for a price on a sym their chance at the current one (off bars, a US
 * equity order only inside its session; on bars, `late` holds those outside it). A post-only order
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
    // Gone already: an earlier order's fill ended it (a reduce-only order capped by its position).
    if (index < 0) continue;
    state.waitingMarket.splice(index, 1);
    if (!isLive(order)) continue;
    if (
      takeableLevels(state, order, marketOf(state, sym)).length === 0 ||
      (state.matchingBar === undefined && !inSession(state, order))
    ) {
      state.waitingMarket.push(order);
      continue;
    }
    if (isUnsizedQuoteOrder(order) && refusedUnsizable(state, order, takingPlace(state, order))) continue;
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
