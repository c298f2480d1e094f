import type { AlgoOrder, Dec, OrderSide, PlaceAlgoOrderIntent } from '../model/index.ts';
import { onlyReducesPosition } from '../model/index.ts';

/**
 * Whether an algo order's triggered order only ever takes a position off: reduce-only, a hedge
 * leg's closing order, or a take-profit / stop-loss (`TP_SL`, as an order's tp / sl attachments
 * are).
 * @param algo - an open algo order, or one sent and not answered yet
 * @returns true for a protective algo order
 */
export function isProtectiveAlgoOrder(algo: AlgoOrder | PlaceAlgoOrderIntent): boolean {
  return onlyReducesPosition(algo) || algo.algoOrderType === 'TP_SL';
}

/**
 * Whether an order on a position leg trades against that leg's position now (a SELL against a
 * long, a BUY against a short): what it fills takes the position towards flat.
 * @param position - the signed quantity of the order's position leg (long > 0)
 * @param side - the order's side
 * @returns true when the position is open on the side the order reduces
 */
export function tradesAgainst(position: Dec, side: OrderSide): boolean {
  // Not isNegative / isPositive: decimal.js counts 0 as positive and -0 as negative.
  return side === 'BUY' ? position.lt(0) : position.gt(0);
}
