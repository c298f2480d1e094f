import type { Dec } from '../../core/model/index.ts';
import { ZERO } from '../../core/model/index.ts';

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
