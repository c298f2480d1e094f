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
  if (tpTrigger !== undefined && isWrongSide(tpTrigger, limitPrice, above))
    return wrongSideWords('tpTriggerPrice', tpTrigger, above, limitPrice, side);
  if (slTrigger !== undefined && isWrongSide(slTrigger, limitPrice, !above))
    return wrongSideWords('slTriggerPrice', slTrigger, !above, limitPrice, side);
  return undefined;
}

// Module functions, not closures made per call: the gate asks per order, and the TypeScript loader
// names each closure again as it is made (a property define), which cost more than the comparisons.

/** Whether a trigger sits at the limit price or on the side it must not be on. */
function isWrongSide(trigger: Dec, limitPrice: Dec, mustBeAbove: boolean): boolean {
  return mustBeAbove ? trigger.lte(limitPrice) : trigger.gte(limitPrice);
}

/** The problem in words, naming the field. */
function wrongSideWords(
  field: string,
  trigger: Dec,
  mustBeAbove: boolean,
  limitPrice: Dec,
  side: OrderSide,
): string {
  return `${field} ${trigger.toFixed()} must be ${mustBeAbove ? 'above' : 'below'} the limit price ${limitPrice.toFixed()} of a ${side}`;
}
