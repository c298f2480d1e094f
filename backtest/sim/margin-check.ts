import type { Dec } from '../../core/model/index.ts';
import { marginHeadroomOf } from './equity-estimate.ts';
import { availableMargin, orderCommitment } from './margin.ts';
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

/** Why an order failed the margin check, in the account currency. */
export interface MarginRefusal {
  /** What the order needs: the initial margin it adds. */
  readonly needed: Dec;
  /** The available margin before the order (equity - initial margin of positions and other orders). */
  readonly available: Dec;
}

/**
 * The margin check of an order the venue holds (registered among its live orders). An order that
 * opens or adds to a position (in part: a reversal's opening part) needs the increase of its
 * position's margin requirement with it (`orderCommitment`: the closing part adds nothing and a
 * reversal is credited the margin it frees), and fails when the available margin counting it is
 * negative. An order that only reduces never fails. So an account whose positions already need
 * more than its equity can only reduce, as on venues that block opening orders while the
 * available margin is negative (Keel's choice).
 * @param state - the venue
 * @param order - a registered order
 * @returns what it needed and what was available when it does not fit, undefined when it does
 */
export function marginRefusal(state: SimState, order: SimOrder): MarginRefusal | undefined {
  if (hasClearHeadroom(state)) return undefined;
  const { margin, openingNotional } = orderCommitment(state, order);
  if (!openingNotional.gt(0)) return undefined;
  const left = availableMargin(state);
  return left.isNegative() ? { needed: margin, available: left.plus(margin) } : undefined;
}

/**
 * The margin check of an order the venue holds, as {@link marginRefusal}.
 * @param state - the venue
 * @param order - a registered order
 * @returns what the order needs when it does not fit, undefined when it does
 */
export function marginShortfall(state: SimState, order: SimOrder): Dec | undefined {
  return marginRefusal(state, order)?.needed;
}

/**
 * The 401023 detail of a refused order: what it needed and what was available.
 * @param refusal - the refusal
 * @param at - where the price came from, when that needs saying (e.g. `at 104 (...)`)
 * @returns e.g. `needs 5096.00, available 4600.00`
 */
export function refusalDetail(refusal: MarginRefusal, at?: string): string {
  const where = at === undefined ? '' : ` ${at}`;
  return `needs ${refusal.needed.toFixed(2)}${where}, available ${refusal.available.toFixed(2)}`;
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
