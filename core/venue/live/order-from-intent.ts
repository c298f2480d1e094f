import {
  type Order,
  type OrderState,
  type PlaceOrderIntent,
  VENUE_ORDER_STATES,
  ZERO,
} from '../../model/index.ts';

const VENUE_STATES = new Set<string>(VENUE_ORDER_STATES);

/**
 * The order Keel knows from its own intent plus what an ack or a refusal said: used for the
 * order event of an ack (NEW) and of a refusal (REJECTED), when the venue sent no full order.
 * @param intent - the place-order intent
 * @param orderId - the venue's id, empty when none was given
 * @param state - the state to report (unknown venue states fall back to NEW)
 * @param ts - event time, epoch ms
 * @param reason - why, for REJECTED
 * @returns the order
 */
export function orderFromIntent(
  intent: PlaceOrderIntent,
  orderId: string,
  state: string,
  ts: number,
  reason?: string,
): Order {
  return {
    orderId,
    clientOrderId: intent.ref,
    portfolioId: '',
    sym: intent.sym,
    side: intent.side,
    orderType: intent.orderType,
    timeInForce: intent.timeInForce,
    orderState: (VENUE_STATES.has(state) ? state : 'NEW') as OrderState,
    orderQty: intent.qty,
    limitPrice: intent.price ?? ZERO,
    executedQty: ZERO,
    executedAmount: ZERO,
    executedAvgPrice: ZERO,
    fee: ZERO,
    feeCoin: '',
    reduceOnly: intent.reduceOnly,
    positionSide: intent.positionSide,
    ...(intent.tp === undefined ? {} : { tp: intent.tp }),
    ...(intent.sl === undefined ? {} : { sl: intent.sl }),
    ...(intent.condition === undefined ? {} : { condition: intent.condition }),
    ...(intent.expiryDate === undefined ? {} : { expiryDate: intent.expiryDate }),
    ...(reason === undefined ? {} : { reason }),
    createAt: ts,
    updateAt: ts,
  };
}
