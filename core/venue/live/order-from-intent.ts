import { orderFromPlaceIntent } from '../../execution/index.ts';
import type { Order, OrderState, PlaceOrderIntent } from '../../model/index.ts';
import { VENUE_ORDER_STATES } from '../../model/index.ts';

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
  return orderFromPlaceIntent(intent, {
    portfolioId: '',
    at: ts,
    orderId,
    orderState: (VENUE_STATES.has(state) ? state : 'NEW') as OrderState,
    ...(reason === undefined ? {} : { reason }),
  });
}
