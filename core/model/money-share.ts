import { D, type Dec } from './decimal.ts';

/** Decimal places a share is rounded to, unless the amount has more. */
const SHARE_DECIMALS = 12;

/**
 * The share of an amount of money a part of a quantity takes, amount x part / whole, rounded
 * half-even to 12 decimal places, or to the amount's own places when it has more: exact whenever
 * the quotient ends within them. Unrounded, a quotient that does not end (a cost averaged over
 * three entries, a third closed) would be a 40-digit rounding that every balance or sum it reaches
 * carries on as noise (cash `99077.8918902000…0001`); one that ends with more places would let an
 * amount's places grow with every share taken until they reach the precision. The caller keeps
 * amount - share for the rest, so what the rounding moves (at most half a unit of the 12th place)
 * stays with the rest and the whole still adds up exactly.
 * @param amount - the amount of the whole (a position's or lot's cost, a fee)
 * @param part - the quantity whose share is wanted
 * @param whole - the whole quantity (> 0)
 * @returns the part's share of the amount
 */
export function shareOf(amount: Dec, part: Dec, whole: Dec): Dec {
  return amount
    .mul(part)
    .div(whole)
    .toDecimalPlaces(Math.max(SHARE_DECIMALS, amount.decimalPlaces()), D.ROUND_HALF_EVEN);
}
