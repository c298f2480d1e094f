import type { Dec } from '../../core/model/index.ts';
import { D, ZERO } from '../../core/model/index.ts';

/**
 * Adds an amount to a running sum that starts at {@link ZERO}: the first non-zero amount is the
 * sum itself, without the addition (decimal.js copies both operands of every addition; 0 + x is
 * x, as no amount here has more digits than the precision). Adding a zero amount, or adding to a
 * sum that is no longer the ZERO constant, is an ordinary addition, so signed zeros come out as
 * decimal.js makes them.
 * @param sum - the sum so far, ZERO before the first amount
 * @param amount - the amount to add
 * @returns the same value as `sum.plus(amount)`
 */
export function addTo(sum: Dec, amount: Dec): Dec {
  return sum === ZERO && !amount.isZero() ? amount : sum.plus(amount);
}

/** Significant digits of Keel's Decimals (`core/model/decimal.ts`). */
const PRECISION = D.precision;

/**
 * Whether adding or subtracting `amount` leaves `value` as it is: decimal.js answers x ± 0 with a
 * copy of x rounded to the precision, which is x again when x is non-zero and has no more digits
 * than the precision. A zero x is left to decimal.js, which decides the sign of a zero result.
 */
function changesNothing(value: Dec, amount: Dec): boolean {
  return amount.isZero() && !value.isZero() && value.sd() <= PRECISION;
}

/**
 * value + amount, without the copy decimal.js makes when the amount is zero (a rebate, a realized
 * PnL or a filled quantity that is nothing on most fills).
 * @param value - a Decimal
 * @param amount - the amount to add
 * @returns the same value as `value.plus(amount)`, signed zeros included
 */
export function plusAmount(value: Dec, amount: Dec): Dec {
  return changesNothing(value, amount) ? value : value.plus(amount);
}

/**
 * value - amount, without the copy decimal.js makes when the amount is zero.
 * @param value - a Decimal
 * @param amount - the amount to subtract
 * @returns the same value as `value.minus(amount)`, signed zeros included
 */
export function minusAmount(value: Dec, amount: Dec): Dec {
  return changesNothing(value, amount) ? value : value.minus(amount);
}
