import type { Dec } from '../../core/model/index.ts';
import { decimalOf, isAboveZero, ZERO } from '../../core/model/index.ts';
import { timesSize } from './contract-size.ts';
import { atLeastZero, smallerOf } from './decimal-compare.ts';
import { addTo } from './decimal-sums.ts';
import {
  contractSizeOf,
  equityOf,
  onlyReduces,
  positionKeyFor,
  positionMarginOf,
  settleValue,
  valued,
} from './margin.ts';
import { markPriceOf } from './market-state.ts';
import { hasRemainder, remainderOf, type SimOrder } from './sim-order.ts';
import { reducibleQty } from './sim-position.ts';
import type { SimState } from './sim-state.ts';
import { spotReservation } from './spot-balance-check.ts';
import { isAssetSettledSym } from './spot-holdings.ts';

/*
 * Initial margin (see the margin model in `margin.ts`): what positions and open orders lock, what
 * one order adds to it, and the available margin left.
 */

/** What an order commits beyond what the position and the other open orders commit already. */
export interface OrderCommitment {
  /** The initial margin it adds, in the account currency (0 when it adds none). */
  readonly margin: Dec;
  /**
   * Notional of its opening part (qty x contract size x price, in the settle asset): the part
   * that opens or adds to a position after its own and earlier orders' closing parts.
   */
  readonly openingNotional: Dec;
}

const NO_COMMITMENT: OrderCommitment = { margin: ZERO, openingNotional: ZERO };

/** Limit price, or the mark for a market order (0 while its sym has no price). */
function orderPriceOf(state: SimState, order: SimOrder): Dec {
  if (!order.price.isZero()) return order.price;
  const market = state.markets.get(order.sym);
  const mark = market ? markPriceOf(market) : Number.NaN;
  return Number.isNaN(mark) ? ZERO : decimalOf(mark);
}

/**
 * Initial margin locked by the open orders of one position on one side (in placement order, none
 * of them only reducing), beyond the position's own margin, in the settle asset. The orders fill
 * in placement order: their first parts close what the position holds on the other side, the rest
 * opens. They lock the increase of the margin of the position they would leave, all filled, over
 * the margin of the position now: on a flat position or one on their side, all of their notional
 * / leverage; against one on the other side, what the opening part needs beyond the margin the
 * closing part frees (a reversal needs the margin of the position it leaves, not that plus the
 * margin of the one it closes), never less than 0.
 * @param state - the venue
 * @param orders - the open orders of one position key and side, placement order
 * @param target - an order among them whose opening notional to report
 * @returns the margin (settle asset) and the target's opening notional
 */
function sideCommitment(state: SimState, orders: readonly SimOrder[], target?: SimOrder): OrderCommitment {
  const first = orders[0];
  if (first === undefined) return NO_COMMITMENT;
  const position = state.positions.get(positionKeyFor(state, first.sym, first.positionSide));
  const closable = position ? reducibleQty(position.qty, first.side) : ZERO;
  const size = contractSizeOf(state, first.sym);
  let left = closable;
  let openingValue = ZERO;
  let targetOpening = ZERO;
  for (const order of orders) {
    const remaining = remainderOf(order);
    const closing = smallerOf(left, remaining);
    let opening = remaining;
    if (!closing.isZero()) {
      left = left.minus(closing);
      opening = remaining.minus(closing);
    }
    if (!isAboveZero(opening)) continue;
    const value = timesSize(opening, size).mul(orderPriceOf(state, order));
    openingValue = addTo(openingValue, value);
    if (order === target) targetOpening = value;
  }
  let margin = openingValue.div(state.opts.leverageOf(first.sym));
  if (position && isAboveZero(closable))
    margin = atLeastZero(margin.minus(positionMarginOf(state, position)));
  return { margin, openingNotional: targetOpening };
}

/**
 * Groups the live orders that may open a position by position key and side, in placement order.
 * Spot orders open none: they freeze assets instead (`spot-balance-check.ts`).
 */
function openingOrdersBySide(state: SimState): Map<string, SimOrder[]> {
  const groups = new Map<string, SimOrder[]>();
  for (const order of state.liveOrders) {
    if (onlyReduces(state, order) || !hasRemainder(order) || isAssetSettledSym(state, order.sym)) continue;
    const key = `${positionKeyFor(state, order.sym, order.positionSide)}|${order.side}`;
    const group = groups.get(key);
    if (group) group.push(order);
    else groups.set(key, [order]);
  }
  return groups;
}

/**
 * What an order commits on top of its position and the other open orders: the increase of the
 * initial margin of its position and side with it (see `sideCommitment`: nothing for the part
 * that closes, and a reversal is credited the margin it frees), and the notional of its opening
 * part. Orders that only reduce commit nothing. The order need not be registered: one with the
 * same orderId among the live orders stands for it.
 * @param state - the venue
 * @param order - the order
 * @returns its margin in the account currency and its opening notional in the settle asset
 */
export function orderCommitment(state: SimState, order: SimOrder): OrderCommitment {
  if (onlyReduces(state, order) || !hasRemainder(order)) return NO_COMMITMENT;
  const key = positionKeyFor(state, order.sym, order.positionSide);
  const others: SimOrder[] = [];
  for (const other of state.liveOrders) {
    if (other.orderId === order.orderId || other.side !== order.side || other.sym !== order.sym) continue;
    if (positionKeyFor(state, other.sym, other.positionSide) !== key) continue;
    if (!onlyReduces(state, other) && hasRemainder(other)) others.push(other);
  }
  const at = others.findIndex((other) => other.seq > order.seq);
  const withOrder = at < 0 ? [...others, order] : [...others.slice(0, at), order, ...others.slice(at)];
  const { margin, openingNotional } = sideCommitment(state, withOrder, order);
  const added = margin.minus(sideCommitment(state, others).margin);
  return { margin: valued(atLeastZero(added), settleValue(state, order.sym)), openingNotional };
}

/**
 * Initial margin an order would lock: the increase of its position's margin requirement with it
 * (`orderCommitment`); for a spot order what it freezes of the coin it pays with
 * (`spotReservation`), as spot orders lock no margin.
 * @param state - the venue
 * @param order - the order
 * @returns the margin in the account currency, or a spot order's frozen amount in its coin
 */
export function orderMargin(state: SimState, order: SimOrder): Dec {
  if (isAssetSettledSym(state, order.sym)) return spotReservation(state, order);
  return orderCommitment(state, order).margin;
}

/**
 * Initial margin locked by positions and open orders (orders per position and side, as
 * `sideCommitment` counts them).
 * @param state - the venue
 * @returns the margin in the account currency
 */
export function initialMargin(state: SimState): Dec {
  let im = ZERO;
  for (const position of state.positions.values()) {
    if (!position.qty.isZero())
      im = addTo(im, valued(positionMarginOf(state, position), settleValue(state, position.sym)));
  }
  // No order left (as after most fills): no grouping either.
  if (state.liveOrders.size === 0) return im;
  for (const orders of openingOrdersBySide(state).values()) {
    const sym = (orders[0] as SimOrder).sym;
    im = addTo(im, valued(sideCommitment(state, orders).margin, settleValue(state, sym)));
  }
  return im;
}

/**
 * Available margin: equity minus the initial margin of positions and open orders.
 * @param state - the venue
 * @returns the margin in the account currency (negative when over-committed)
 */
export function availableMargin(state: SimState): Dec {
  return equityOf(state).minus(initialMargin(state));
}
