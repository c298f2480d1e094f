import type { Dec, InstrumentSpec } from '../model/index.ts';
import { asNumber, isNotionalBelowMinimum, ZERO } from '../model/index.ts';

/**
 * A sized quantity, or zero when no order could carry it by the minimums the risk gate and the
 * simulated venue apply to every opening order: below the instrument's minimum size or, at
 * `price`, below its minimum notional (qty x contractSize x price). The maxima (maxMarketSize,
 * maxLimitSize) are per order, not per position: a larger quantity is sent in pieces.
 * @param qty - a non-negative multiple of the lot size
 * @param price - the price it is valued at; undefined leaves minNotional unchecked
 * @param spec - the instrument
 * @returns the quantity, or zero
 */
export function clearOfOrderMinimums(qty: Dec, price: number | undefined, spec: InstrumentSpec): Dec {
  if (qty.isZero() || qty.lt(spec.minSize)) return ZERO;
  if (
    price !== undefined &&
    !spec.minNotional.isZero() &&
    isNotionalBelowMinimum(
      qty,
      asNumber(qty),
      price,
      spec,
      asNumber(spec.contractSize),
      asNumber(spec.minNotional),
    )
  )
    return ZERO;
  return qty;
}
