import { D, type Dec } from './decimal.ts';

/** Decimals of twice the money precision, to tell whether a quotient of money ends. */
const WideDecimal = D.clone({ precision: 80 });

/** Decimal places a share that does not end is rounded to, unless the amount has more. */
const SHARE_DECIMALS = 12;

/**
 * The share of an amount of money a part of a quantity takes, amount x part / whole, as a finite
 * decimal: the quotient when it ends within the precision, else (a cost averaged over three
 * entries, a third closed) rounded half-even to 12 places, or to the amount's own places when it
 * has more. Unrounded, it would be a 40-digit rounding that every balance or sum it reaches
 * carries on as noise (cash `99077.8918902000…0001`), and accounts would no longer add up
 * exactly. The caller keeps amount - share for the rest, so what the rounding moves (at most half
 * a unit of the 12th place) stays with the rest and the whole still adds up exactly.
 * @param amount - the amount of the whole (a position's or lot's cost, a fee)
 * @param part - the quantity whose share is wanted
 * @param whole - the whole quantity (> 0)
 * @returns the part's share of the amount
 */
export function shareOf(amount: Dec, part: Dec, whole: Dec): Dec {
  const product = amount.mul(part);
  const quotient = product.div(whole);
  // Checked in twice the precision, where quotient x whole is exact (at 40 digits, 33.3…3 x 3
  // would round to 100 and pass).
  if (new WideDecimal(quotient).mul(whole).eq(product)) return quotient;
  return quotient.toDecimalPlaces(Math.max(SHARE_DECIMALS, amount.decimalPlaces()), D.ROUND_HALF_EVEN);
}
