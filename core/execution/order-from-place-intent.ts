import type { Order, OrderState, PlaceOrderIntent } from '../model/index.ts';
import { ZERO } from '../model/index.ts';

/** What Keel knows of an order besides its intent: whose it is, when, and what the venue said. */
export interface PlaceIntentOrderFacts {
  /** The portfolio the order is booked to; empty when not known yet. */
  readonly portfolioId: string;
  /** Creation and update time, epoch ms. */
  readonly at: number;
  /** The venue's id; empty (the default) before the venue gave one. */
  readonly orderId?: string;
  /** The state to report; `PENDING_NEW` (sent, not yet acknowledged) by default. */
  readonly orderState?: OrderState;
  /** Why, for a refused order. */
  readonly reason?: string;
}

/**
 * The order a place-order intent stands for before (or without) the venue's full order: nothing
 * executed, no fee, the intent's own fields. The kernel holds it as the
 * placeholder of an order in flight; the live adapter reports it for an ack or a refusal that
 * carried no order. Optional fields the intent leaves out stay absent on the order.
 * @param intent - the place-order intent
 * @param facts - portfolio, time and, when known, the venue's id, state and reason
 * @returns the order
 * @example
 * const pending = orderFromPlaceIntent(intent, { portfolioId: 'P1', at: now });
 */
export function orderFromPlaceIntent(intent: PlaceOrderIntent, facts: PlaceIntentOrderFacts): Order {
  return {
    orderId: facts.orderId ?? '',
    clientOrderId: intent.ref,
    portfolioId: facts.portfolioId,
    sym: intent.sym,
    side: intent.side,
    orderType: intent.orderType,
    timeInForce: intent.timeInForce,
    orderState: facts.orderState ?? 'PENDING_NEW',
    orderQty: intent.qty,
    limitPrice: intent.price ?? ZERO,
    ...(intent.quoteOrderQty === undefined ? {} : { quoteOrderQty: intent.quoteOrderQty }),
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
    ...(facts.reason === undefined ? {} : { reason: facts.reason }),
    createAt: facts.at,
    updateAt: facts.at,
  };
}
