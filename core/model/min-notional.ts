import type { Dec } from './decimal.ts';
import { decimalOf } from './decimal.ts';
import type { InstrumentSpec } from './instrument.ts';

/**
 * Whether an order's notional, qty x price x contract size, is below the instrument's minNotional.
 * The number product is within a few units in the last place of the exact one, so it decides
 * alone when it is clear of minNotional by far more than that (a millionth of a millionth); the
 * exact Decimal product decides otherwise (0.29 x 100 is 28.999999999999996 on numbers, 29 exactly).
 * @param qty - the quantity
 * @param qtyN - `asNumber(qty)`
 * @param price - the price as a number
 * @param spec - the instrument (its contract size and minNotional)
 * @param contractSizeN - `asNumber(spec.contractSize)`
 * @param minNotionalN - `asNumber(spec.minNotional)`
 * @param exactPrice - the price as a Decimal when the caller holds one; otherwise the number's decimal value
 * @returns whether the notional is below minNotional
 */
export function isNotionalBelowMinimum(
  qty: Dec,
  qtyN: number,
  price: number,
  spec: Pick<InstrumentSpec, 'contractSize' | 'minNotional'>,
  contractSizeN: number,
  minNotionalN: number,
  exactPrice?: Dec,
): boolean {
  const notional = qtyN * price * contractSizeN;
  const gap = notional - minNotionalN;
  const slack = 1e-12 * (Math.abs(notional) + Math.abs(minNotionalN));
  if (gap > slack) return false;
  if (-gap > slack) return true;
  return qty
    .mul(exactPrice ?? decimalOf(price))
    .mul(spec.contractSize)
    .lt(spec.minNotional);
}
