import type { Dec } from '../../core/model/index.ts';
import { marginHeadroomOf } from './equity-estimate.ts';
import { availableMargin, orderMargin } from './margin.ts';
import { markPriceOf } from './market-state.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';

/**
 * Whether the available margin is certainly not negative, from its number floor with room for
 * float rounding (a millionth of the amounts involved): then no order can fail the margin check
 * and the exact Decimal figures are not needed.
 */
function hasClearHeadroom(state: SimState): boolean {
  const { equity, floor } = marginHeadroomOf(state);
  return floor > 1e-6 * (Math.abs(equity) + 1);
}

/**
 * The margin check of an order the venue holds (registered among its live orders): what the
 * order needs when the available margin, counting it, is negative.
 * @param state - the venue
 * @param order - a registered order
 * @returns the order's initial margin when it does not fit, undefined when it does
 */
export function marginShortfall(state: SimState, order: SimOrder): Dec | undefined {
  if (hasClearHeadroom(state)) return undefined;
  const required = orderMargin(state, order);
  if (!required.gt(0)) return undefined;
  return availableMargin(state).isNegative() ? required : undefined;
}

/**
 * Whether an order's margin cannot be known yet: it has no limit price and its sym has no price
 * (a market order before the first quote, trade or bar). Its check waits for the first price.
 * @param state - the venue
 * @param order - a new order
 * @returns true when the order would add margin at a price nobody knows yet
 */
export function marginUnpriced(state: SimState, order: SimOrder): boolean {
  if (order.reduceOnly || !order.price.isZero()) return false;
  const market = state.markets.get(order.sym);
  return market === undefined || Number.isNaN(markPriceOf(market));
}
