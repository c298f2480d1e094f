import { asNumber, D, type Dec } from '../../../core/model/index.ts';
import type { ClosingTrade } from './lot-book.ts';
import type { RoundTripTrade } from './round-trip-trade.ts';

/**
 * A closing trade as the round trip it makes: prices, PnL after fees (times the contract size)
 * and the return on the entry notional.
 * @param t - the trade, grown as far as it goes
 * @returns the round trip
 */
export function closedTrade(t: ClosingTrade): RoundTripTrade {
  // Multiplying by a contract size of 1 or a sign of 1 changes no digit: both are skipped.
  const gross = t.exitCost.minus(t.entryCost);
  const grossSized = t.contractSize === undefined ? gross : gross.mul(t.contractSize);
  const grossPnl = t.lot.direction === 'LONG' ? grossSized : grossSized.neg();
  const pnl = grossPnl.minus(t.fees);
  const entryNotional = t.contractSize === undefined ? t.entryCost : t.entryCost.mul(t.contractSize);
  const entryPrice = priceOf(t.entryCost, t.qty, t.lot.firstPrice, t.entryCostIsProduct);
  const exitPrice = priceOf(t.exitCost, t.qty, t.firstExitPrice, t.exitCostIsProduct);
  // A number metric, divided as numbers: the 40-digit Decimal quotient cost more than the rest of closing the trade.
  const returnFraction = entryNotional.isZero() ? 0 : asNumber(pnl) / asNumber(entryNotional);
  const entryStrategyId = t.lot.entryStrategyId;
  const exitStrategyId = t.exitStrategyId;
  if (entryStrategyId !== undefined && exitStrategyId !== undefined) {
    // Both owners known (nearly always): one literal, without the spreads of the general case.
    return {
      sym: t.sym,
      positionSide: t.positionSide,
      direction: t.lot.direction,
      qty: t.qty,
      entryTs: t.lot.entryTs,
      exitTs: t.exitTs,
      entryPrice,
      exitPrice,
      entryOrderId: t.lot.entryOrderId,
      exitOrderId: t.exitOrderId,
      entryStrategyId,
      exitStrategyId,
      grossPnl,
      fees: t.fees,
      pnl,
      returnFraction,
      durationMs: t.exitTs - t.lot.entryTs,
    };
  }
  return {
    sym: t.sym,
    positionSide: t.positionSide,
    direction: t.lot.direction,
    qty: t.qty,
    entryTs: t.lot.entryTs,
    exitTs: t.exitTs,
    entryPrice,
    exitPrice,
    entryOrderId: t.lot.entryOrderId,
    exitOrderId: t.exitOrderId,
    ...(entryStrategyId === undefined ? {} : { entryStrategyId }),
    ...(exitStrategyId === undefined ? {} : { exitStrategyId }),
    grossPnl,
    fees: t.fees,
    pnl,
    returnFraction,
    durationMs: t.exitTs - t.lot.entryTs,
  };
}

/**
 * Significant digits of a volume-weighted price that is not one of its fills' prices (Keel's
 * choice): 15, what a double holds exactly, so `94961.4060836502` rather than the division's 40
 * digits. The price is shown, never computed with: PnL and returns come from the exact costs.
 */
export const AVERAGE_PRICE_DIGITS = 15;

/**
 * `cost / qty`, a trade's volume-weighted price, to {@link AVERAGE_PRICE_DIGITS} significant
 * digits (a quotient that ends within them is exact), but without
 * dividing when the cost is exactly `price` times the quantity (one fill, or fills at one
 * price: most trades): the quotient is then `price` itself. Two numbers whose significant
 * digits add up to at most 40 multiply exactly, so the comparison is exact, and the division
 * would round the exact quotient `price` (of at most 40 digits) to itself. The multiply and the
 * comparison cost far less than the 40-digit division, which was the most of closing a trade.
 * When the caller knows the cost is that very product (a trade of one fill at each end), the
 * product is not made again: decimal.js would give the same Decimal, so the comparison would hold.
 * @param cost - price times quantity summed over the fills
 * @param qty - the quantity
 * @param price - a likely price: the first fill's
 * @param costIsProduct - whether `cost` is `price.mul(qty)` as decimal.js computed it
 * @returns the price
 */
export function priceOf(cost: Dec, qty: Dec, price: Dec, costIsProduct = false): Dec {
  if (!qty.isZero() && price.sd() + qty.sd() <= D.precision && (costIsProduct || price.mul(qty).eq(cost)))
    return price;
  return cost.div(qty).toSignificantDigits(AVERAGE_PRICE_DIGITS);
}
