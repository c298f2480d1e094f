import type { Dec, ExecType, OrderAction, OrderState } from '../../core/model/index.ts';
import { asNumber, D, isAboveZero, ONE, ZERO } from '../../core/model/index.ts';
import { timesSize } from './contract-size.ts';
import { smallerOf } from './decimal-compare.ts';
import { minusAmount, plusAmount } from './decimal-sums.ts';
import { fillFee } from './fee-model.ts';
import { retireFinalOrder } from './final-order-retention.ts';
import { republishMovedLiqPrices } from './liq-price-watch.ts';
import { equityOf, onlyReduces, positionKeyFor } from './margin.ts';
import { publishBalances, publishOrder, publishPosition } from './publish.ts';
import { remainderOf, type SimOrder } from './sim-order.ts';
import { bookFill, flatPosition, reducibleQty, type SimPosition } from './sim-position.ts';
import { credit, emit, nextId, type SimState } from './sim-state.ts';
import { isAssetSettled, positionsOf, settleSpotFill } from './spot-holdings.ts';

/**
 * The position an order trades, created flat when missing: a margin position, or the holding of an
 * asset-settled (spot) sym (`spot-holdings.ts`).
 * @param state - the venue
 * @param order - the order
 * @returns the position record
 */
export function positionFor(state: SimState, order: Pick<SimOrder, 'sym' | 'positionSide'>): SimPosition {
  const key = positionKeyFor(state, order.sym, order.positionSide);
  const positions = positionsOf(state, order.sym);
  let position = positions.get(key);
  if (!position) {
    const side = state.positionMode === 'NET' ? 'NONE' : order.positionSide;
    position = flatPosition(order.sym, side, state.opts.leverageOf(order.sym), state.now, {
      contractSizeN: asNumber(state.opts.instruments.get(order.sym)?.contractSize ?? ONE),
      mmrN: asNumber(state.opts.mmrOf(order.sym)),
    });
    positions.set(key, position);
  }
  return position;
}

/**
 * Takes a final order off the book, out of every waiting list and out of the live orders (into
 * the bounded list of final ones).
 * @param state - the venue
 * @param order - the order
 */
export function unlist(state: SimState, order: SimOrder): void {
  if (state.liveOrders.delete(order)) retireFinalOrder(state, order);
  state.books.get(order.sym)?.remove(order);
  const held = state.held.indexOf(order);
  if (held >= 0) state.held.splice(held, 1);
  const waiting = state.waitingMarket.indexOf(order);
  if (waiting >= 0) state.waitingMarket.splice(waiting, 1);
  const closed = state.closedSession.indexOf(order);
  if (closed >= 0) state.closedSession.splice(closed, 1);
}

/**
 * Moves an order to a final state (cancelled, expired, rejected) and reports it; a parent with
 * fills gets its tp / sl attachments.
 * @param state - the venue
 * @param order - the order
 * @param finalState - CANCELLED or REJECTED (FILLED is reached through fills)
 * @param action - the action reported with it
 * @param cancelType - why it was cancelled (IOC, FOK, EXPIRED, USER, REDUCE_ONLY, LIQUIDATION...)
 * @param at - the order's `updateAt` (default: now): an expiry the bar model held for the bar
 *   whose span holds it is stamped with the time the order ended, not when the bar arrived
 */
export function finishOrder(
  state: SimState,
  order: SimOrder,
  finalState: OrderState,
  action: OrderAction,
  cancelType?: string,
  at = state.now,
): void {
  unlist(state, order);
  order.state = finalState;
  order.remainingN = 0;
  if (cancelType !== undefined) order.cancelType = cancelType;
  publishOrder(state, order, action, at);
  if (isAboveZero(order.filled)) state.hooks.attachTpSl(order);
}

/**
 * Executes part of an order: books the position, realized PnL and fee in the settle asset, and
 * reports execution, order, position (and every other position whose liqPrice moved), asset and
 * account. On an asset-settled (spot) sym the fill moves the base and quote balances instead of
 * crediting the realized PnL (`spot-holdings.ts`); the realized PnL is still reported and kept in
 * the ledger. A reduce-only order is trimmed to what
 * still reduces; when nothing does, its remainder is cancelled. A fill that reduces the position
 * caps the leg's open reduce-only orders at what is left (`capReduceOnly`).
 * @param state - the venue
 * @param order - the order being filled
 * @param wanted - quantity the market offers (> 0, at most the remainder)
 * @param price - fill price
 * @param execType - MAKER when the order rested, TAKER when it took liquidity
 * @returns the quantity actually filled
 */
export function executeFill(
  state: SimState,
  order: SimOrder,
  wanted: Dec,
  price: Dec,
  execType: ExecType,
): Dec {
  const spec = state.opts.instruments.get(order.sym);
  if (!spec) return ZERO;
  const position = positionFor(state, order);
  let quantity = smallerOf(wanted, remainderOf(order));
  if (onlyReduces(state, order)) quantity = smallerOf(quantity, reducibleQty(position.qty, order.side));
  if (!isAboveZero(quantity)) {
    finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', 'REDUCE_ONLY');
    return ZERO;
  }
  // A fill that opens a position, or turns it to the other side, starts a new one (its tp / sl legs
  // belong to the one before).
  const reduces = reducibleQty(position.qty, order.side);
  if (position.qty.isZero() || (!reduces.isZero() && quantity.gt(reduces))) position.createAt = state.now;
  const firstOfOrder = order.filled.isZero();
  const rpnl = bookFill(position, order.side, quantity, price, spec.contractSize);
  state.portfolioVersion++;
  const value = quantity.mul(price);
  const notional = timesSize(value, spec.contractSize);
  const { fee, rebate } = order.liquidation
    ? { fee: notional.mul(spec.liquidationFee), rebate: ZERO }
    : fillFee(spec.fees, execType, notional, state.feeMarkup, firstOfOrder);
  const spot = isAssetSettled(spec);
  const moved = spot ? settleSpotFill(state, spec, order.side, quantity, price) : [];
  credit(state, spec.settleAsset, plusAmount((spot ? ZERO : rpnl).minus(fee), rebate));
  state.ledger.realizedPnl = plusAmount(state.ledger.realizedPnl, rpnl);
  if (order.liquidation) {
    // The venue charges a liquidation fee instead of the trading fee (Keel's choice of model).
    state.ledger.liquidationFees = state.ledger.liquidationFees.plus(fee);
    state.cashFlows.push({
      type: 'LIQUIDATION_FEE',
      coin: spec.settleAsset,
      amount: fee.neg(),
      sym: order.sym,
      ts: state.now,
    });
  } else {
    state.ledger.tradingFees = minusAmount(state.ledger.tradingFees.plus(fee), rebate);
  }

  state.fills++;
  order.filled = order.filled.plus(quantity);
  const fillOrder = order.filled.cmp(order.qty);
  // Filled up to its qty, nothing remains: qty - filled would be zero.
  order.remainingN = fillOrder === 0 ? 0 : asNumber(order.qty.minus(order.filled));
  order.amount = order.amount.plus(value);
  order.avgPrice = firstOfOrder ? firstAvgPrice(quantity, price, order) : order.amount.div(order.filled);
  order.fee = minusAmount(order.fee.plus(fee), rebate);
  order.feeCoin = spec.settleAsset;
  const done = fillOrder >= 0;
  order.state = done ? 'FILLED' : 'PARTIALLY_FILLED';

  emit(state, {
    kind: 'execution',
    execution: {
      transactionId: nextId(state, 'T'),
      portfolioId: state.opts.portfolioId,
      orderId: order.orderId,
      clientOrderId: order.clientOrderId,
      sym: order.sym,
      side: order.side,
      positionSide: position.positionSide,
      quantity,
      price,
      fee,
      feeCoin: spec.settleAsset,
      rebate,
      rpnl,
      execType,
      timestamp: state.now,
    },
    // The collection records' share of the fee; a liquidation fill pays the liquidation fee instead.
    subPortfolioMarkup:
      order.liquidation || state.feeMarkup.isZero() ? undefined : notional.mul(state.feeMarkup),
  });
  if (done) unlist(state, order);
  publishOrder(state, order, 'FILL');
  // Publishing changes nothing in the venue (commands queue until their arrival), so the position
  // and the balances are reported at one equity.
  const equity = equityOf(state);
  publishPosition(state, position, equity);
  // The fill moved equity and margin: the other positions' liqPrices (the other leg of a BOTH-mode
  // sym included) moved with them.
  republishMovedLiqPrices(state, equity, position);
  publishBalances(state, spot ? [...new Set([...moved, spec.settleAsset])] : [spec.settleAsset], equity);
  // What it reduced, the leg's reduce-only orders (this one's remainder included) can no longer.
  if (!reduces.isZero()) state.hooks.capReduceOnly(position);
  if (done) state.hooks.attachTpSl(order);
  return quantity;
}

/**
 * The average price after an order's first fill: amount / filled is (0 + qty x price) / (0 + qty),
 * which is the price itself when the product is exact (their digits fit the precision), as it
 * nearly always is; the division otherwise.
 */
function firstAvgPrice(quantity: Dec, price: Dec, order: SimOrder): Dec {
  if (price.sd() + quantity.sd() <= D.precision) return price;
  return order.amount.div(order.filled);
}
