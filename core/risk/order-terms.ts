import type { Dec, Intent, OrderSide, OrderType, PositionSide } from '../model/index.ts';
import { decimalOf } from '../model/index.ts';
import type { RiskView } from './risk-view.ts';

/** The order an intent would put on the book, as the size and limit checks see it. */
export interface OrderTerms {
  readonly sym: string;
  readonly side: OrderSide;
  readonly orderType: OrderType;
  readonly qty: Dec;
  /** Limit price; undefined for market orders. */
  readonly price: Dec | undefined;
  readonly positionSide: PositionSide;
  readonly reduceOnly: boolean;
  /** clientOrderId of the order being modified, so projections do not count it twice. */
  readonly replaces?: string;
}

/**
 * The order terms of an intent: a new order, an algo order (as the order its trigger places),
 * or a modification merged with the open order it targets.
 * @param intent - any intent
 * @param view - the state, to find a modified order
 * @returns the terms, or undefined for intents that place no order (or modify an unknown one)
 */
export function orderTermsOf(intent: Intent, view: RiskView): OrderTerms | undefined {
  switch (intent.kind) {
    case 'placeOrder':
      return {
        sym: intent.sym,
        side: intent.side,
        orderType: intent.orderType,
        qty: intent.qty,
        price: intent.orderType === 'LIMIT' ? intent.price : undefined,
        positionSide: intent.positionSide,
        reduceOnly: intent.reduceOnly,
      };
    case 'placeAlgoOrder':
      return {
        sym: intent.sym,
        side: intent.side,
        orderType: intent.price.isZero() ? 'MARKET' : 'LIMIT',
        qty: intent.qty,
        price: intent.price.isZero() ? undefined : intent.price,
        positionSide: intent.positionSide,
        reduceOnly: intent.reduceOnly,
      };
    case 'modifyOrder': {
      const order = view.orderByRef(intent.target);
      if (order === undefined) return undefined;
      return {
        sym: order.sym,
        side: order.side,
        orderType: order.orderType,
        qty: intent.qty ?? order.orderQty,
        price: order.orderType === 'LIMIT' ? (intent.price ?? order.limitPrice) : undefined,
        positionSide: order.positionSide,
        reduceOnly: order.reduceOnly,
        replaces: order.clientOrderId,
      };
    }
    default:
      return undefined;
  }
}

/**
 * Whether an order would only shrink the position it trades against: opposite side to a
 * non-zero position and no larger than it.
 * @param terms - the order
 * @param view - the state
 * @returns true when the order reduces
 */
export function reducesPosition(terms: OrderTerms, view: RiskView): boolean {
  const position = view.positionQty(terms.sym, terms.positionSide);
  if (position.isZero()) return false;
  const opposite = terms.side === 'BUY' ? position.isNegative() : position.isPositive();
  return opposite && terms.qty.lessThanOrEqualTo(position.abs());
}

/**
 * The price a notional is computed at: the limit price, else the reference price.
 * @param terms - the order
 * @param view - the state
 * @returns the price, or undefined when a market order has no reference price
 */
export function notionalPrice(terms: OrderTerms, view: RiskView): Dec | undefined {
  if (terms.price !== undefined) return terms.price;
  const reference = view.referencePrice(terms.sym);
  return reference === undefined ? undefined : decimalOf(reference);
}
