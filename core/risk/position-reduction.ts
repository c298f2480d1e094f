import type { Dec, Order } from '../model/index.ts';
import { closesHedgeLeg, onlyReducesPosition, ZERO } from '../model/index.ts';
import { type AddingAlgoOrder, forEachAddingAlgoOrder } from './adding-algo-orders.ts';
import { type OrderTerms, openOrderLeft, sizeKnown, unfilledQty } from './order-terms.ts';
import type { RiskView } from './risk-view.ts';

/**
 * An open order that trades on the same position leg and side as the order (and is not the one
 * it replaces): filled, it moves the position the same way.
 * @param order - an open order
 * @param terms - the order being decided
 * @returns true when the open order counts with it
 */
export function isPendingSameSide(order: Order, terms: OrderTerms): boolean {
  return (
    order.positionSide === terms.positionSide &&
    order.side === terms.side &&
    order.clientOrderId !== terms.replaces
  );
}

/**
 * An algo order not triggered yet that sends an order on the same sym, position leg and side as
 * the order: if it fires, that order moves the position the same way.
 * @param algo - an algo order that can add to a position
 * @param terms - the order being decided
 * @returns true when it counts with the order
 */
export function isAddingSameSide(algo: AddingAlgoOrder, terms: OrderTerms): boolean {
  return algo.sym === terms.sym && algo.positionSide === terms.positionSide && algo.side === terms.side;
}

/** The unfilled quantity of the open orders on one leg and side, split by whether they are reduce-only. */
export interface PendingSameSide {
  readonly plain: Dec;
  readonly reduceOnly: Dec;
}

/**
 * The size a position close in flight on the order's leg will close, when the close trades on
 * the order's side (it sells a long leg, buys a short one): until its order is seen, the close
 * counts as a resting reduce-only order of that size.
 * @param terms - the order being decided
 * @param view - the state
 * @param owner - count only this strategy's closes; undefined = every strategy's
 * @returns the size, zero when no such close is in flight
 */
export function closingSameSide(terms: OrderTerms, view: RiskView, owner?: string): Dec {
  const closing = view.closingPositionQty(terms.sym, terms.positionSide, owner);
  if (closing.isZero()) return closing;
  return closing.isPositive() === (terms.side === 'SELL') ? closing.abs() : ZERO;
}

/**
 * The unfilled quantity of the open orders on the order's sym, leg and side (the one it replaces
 * aside), split into plain and reduce-only orders (in BOTH mode a leg's closing orders count as
 * reduce-only): a reduce-only order fills only while the position is opposite to it, so together
 * they move the position by at most the plain orders plus the smaller of the reduce-only ones and
 * the position (see `maxPositionCheck`). A quote-sized order not sized yet counts at the qty its
 * amount buys at the reference price, an order with a modify in flight at the larger qty
 * (`openOrderLeft`), and a position close in flight as a reduce-only order of the leg's size
 * ({@link closingSameSide}). Algo orders not triggered yet (sent and not answered yet
 * included) that can add to a position count as plain orders of the qty they send, as if every
 * one fired; reduce-only ones (exits) and attached take-profits and stop-losses are not counted
 * (see `forEachAddingAlgoOrder`).
 * @param terms - the order being decided
 * @param view - the state
 * @param owner - count only this strategy's orders; undefined = every strategy's
 * @returns the two sums (zero when none)
 */
export function pendingSameSideSplit(terms: OrderTerms, view: RiskView, owner?: string): PendingSameSide {
  let plain = ZERO;
  forEachAddingAlgoOrder(view, owner, terms.replacesAlgo, (algo) => {
    if (isAddingSameSide(algo, terms)) plain = plain.add(algo.qty);
  });
  let reduceOnly = closingSameSide(terms, view, owner);
  for (const order of view.openOrdersOn(terms.sym, owner)) {
    if (!isPendingSameSide(order, terms)) continue;
    const left = openOrderLeft(order, view);
    if (onlyReducesPosition(order)) reduceOnly = reduceOnly.add(left);
    else plain = plain.add(left);
  }
  return { plain, reduceOnly };
}

/**
 * The unfilled quantity of the open orders on the order's sym, leg and side (the one it replaces
 * aside), all strategies' or one strategy's: what would trade the same way if every one filled,
 * the algo orders not triggered yet that can add to a position among them (see {@link pendingSameSideSplit}).
 * @param terms - the order being decided
 * @param view - the state
 * @param owner - count only this strategy's orders; undefined = every strategy's
 * @returns the summed remaining quantity (zero when none)
 */
function pendingSameSideQty(terms: OrderTerms, view: RiskView, owner?: string): Dec {
  const pending = pendingSameSideSplit(terms, view, owner);
  return pending.plain.add(pending.reduceOnly);
}

/**
 * Whether the order trades against a non-zero position on its leg and is no larger than it, on
 * its own (resting orders aside): what a US equity's reduce-only order must be when it is sent,
 * as its venue does not trim it (a crypto one need only be opposite: the venue trims it).
 * @param terms - the order
 * @param view - the state
 * @returns true when it is opposite to the position and at most its size
 */
export function fitsOppositePosition(terms: OrderTerms, view: RiskView): boolean {
  const position = view.positionQty(terms.sym, terms.positionSide);
  if (position.isZero()) return false;
  const opposite = terms.side === 'BUY' ? position.isNegative() : position.isPositive();
  return opposite && unfilledQty(terms).lessThanOrEqualTo(position.abs());
}

/**
 * Whether the order would only shrink the position it trades against, even after every resting
 * order on the same side filled first (and every algo order not triggered yet that can add to a
 * position fired): those already claim part of the position, so the order reduces only by what
 * they leave (|position| - their unfilled quantity), and must fit in it.
 * Several orders that each fit the position alone are not all reducing together: the first that
 * fit use the position up and the next would flip it. A quote-sized order whose size is not known
 * (no reference price) is not reducing.
 * @param terms - the order
 * @param view - the state
 * @param owner - count only this strategy's resting orders; undefined = every strategy's (the
 *   position is the portfolio's, whichever strategy's order fills first)
 * @returns true when the order reduces
 */
export function reducesPosition(terms: OrderTerms, view: RiskView, owner?: string): boolean {
  if (!sizeKnown(terms) || !fitsOppositePosition(terms, view)) return false;
  // A hedge leg's closing order never opens the other way, whatever rests beside it.
  if (closesHedgeLeg(terms)) return true;
  const left = view
    .positionQty(terms.sym, terms.positionSide)
    .abs()
    .sub(pendingSameSideQty(terms, view, owner));
  return unfilledQty(terms).lessThanOrEqualTo(left);
}
