import type { Dec } from './decimal.ts';
import type { OrderSide } from './order.ts';

/**
 * What is wrong with the sides of an order's take-profit and stop-loss triggers, seen from the
 * order's limit price: a BUY's take-profit must trigger above it and its stop-loss below it, a
 * SELL's the other way round. One on the wrong side (or at the price) would fire as soon as the
 * entry fills, or protect nothing. Keel's rule: the spec states no check of attachment prices; a
 * real venue may refuse such an order or accept it, and the risk gate and the paper venue refuse
 * it alike (`tpSlSide`, 400001).
 * @param side - the order's side
 * @param limitPrice - the order's limit price (a market order has none to check against)
 * @param tpTrigger - the take-profit's trigger price, if any
 * @param slTrigger - the stop-loss's trigger price, if any
 * @returns the problem in words naming the field, or undefined when both sides are right
 * @example
 * tpSlSideProblem('BUY', D('1000'), D('500'), undefined);
 * // 'tpTriggerPrice 500 must be above the limit price 1000 of a BUY'
 */
export function tpSlSideProblem(
  side: OrderSide,
  limitPrice: Dec,
  tpTrigger: Dec | undefined,
  slTrigger: Dec | undefined,
): string | undefined {
  const above = side === 'BUY';
  const wrong = (trigger: Dec, mustBeAbove: boolean) =>
    mustBeAbove ? trigger.lte(limitPrice) : trigger.gte(limitPrice);
  const words = (field: string, trigger: Dec, mustBeAbove: boolean) =>
    `${field} ${trigger.toFixed()} must be ${mustBeAbove ? 'above' : 'below'} the limit price ${limitPrice.toFixed()} of a ${side}`;
  if (tpTrigger !== undefined && wrong(tpTrigger, above)) return words('tpTriggerPrice', tpTrigger, above);
  if (slTrigger !== undefined && wrong(slTrigger, !above)) return words('slTriggerPrice', slTrigger, !above);
  return undefined;
}
