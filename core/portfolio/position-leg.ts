import type { Dec, OrderSide } from '../model/index.ts';
import { ZERO } from '../model/index.ts';

/**
 * One position leg: the single signed position of a sym in NET mode, or the LONG or the SHORT
 * leg in BOTH mode. `qty` is signed (long > 0) and counted in contracts.
 */
export interface PositionLeg {
  readonly qty: Dec;
  /** Average entry price of the open quantity; zero when flat. */
  readonly avgPrice: Dec;
  /** Realized PnL accumulated on this leg, in the settlement asset, before fees. */
  readonly realizedPnl: Dec;
}

/** A flat leg with nothing realized. */
export const FLAT_LEG: PositionLeg = { qty: ZERO, avgPrice: ZERO, realizedPnl: ZERO };

/** The leg after a fill and the PnL that fill realized. */
export interface LegFillResult {
  readonly leg: PositionLeg;
  readonly realized: Dec;
}

/**
 * Applies one fill to a leg: increases average in, reductions realize
 * `closedQty * contractSize * (exit - entry)` (sign flipped for shorts), and a fill larger than
 * the open quantity closes it and opens the rest at the fill price (flipping through zero).
 * The venue never over-reduces a BOTH-mode leg; if it did, the leg flips like a NET position so
 * no quantity is lost.
 * @param leg - the leg before the fill
 * @param side - BUY adds to the signed quantity, SELL subtracts
 * @param quantity - filled contracts, positive
 * @param price - fill price
 * @param contractSize - base units per contract (1 for spot and equities)
 * @returns the new leg and the realized PnL of this fill
 */
export function applyFillToLeg(
  leg: PositionLeg,
  side: OrderSide,
  quantity: Dec,
  price: Dec,
  contractSize: Dec,
): LegFillResult {
  const signedFill = side === 'BUY' ? quantity : quantity.neg();
  if (leg.qty.isZero() || leg.qty.isNegative() === signedFill.isNegative()) {
    const newQty = leg.qty.add(signedFill);
    const avgPrice = leg.qty.isZero()
      ? price
      : leg.qty.abs().mul(leg.avgPrice).add(quantity.mul(price)).div(newQty.abs());
    return { leg: { qty: newQty, avgPrice, realizedPnl: leg.realizedPnl }, realized: ZERO };
  }
  const openAbs = leg.qty.abs();
  const closedQty = quantity.lessThan(openAbs) ? quantity : openAbs;
  const direction = leg.qty.isNegative() ? -1 : 1;
  const realized = closedQty.mul(contractSize).mul(price.sub(leg.avgPrice)).mul(direction);
  const newQty = leg.qty.add(signedFill);
  let avgPrice: Dec;
  if (newQty.isZero()) {
    avgPrice = ZERO;
  } else if (newQty.isNegative() === leg.qty.isNegative()) {
    avgPrice = leg.avgPrice;
  } else {
    avgPrice = price;
  }
  return { leg: { qty: newQty, avgPrice, realizedPnl: leg.realizedPnl.add(realized) }, realized };
}
