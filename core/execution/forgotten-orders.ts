import type { Order, UserEvent } from '../model/index.ts';
import { UNKNOWN_ORDER_REASON } from './reconciliation.ts';

/**
 * Orders a reconciliation ended CANCELLED because the venue neither lists nor knows them although
 * it had acknowledged them: a contradiction (the venue lost state, e.g. it restarted without its
 * data), unlike an order it never acknowledged (ended REJECTED: it may never have arrived).
 * @param corrections - the events a reconciliation emitted
 * @returns the orders, in the corrections' order
 */
export function forgottenOrders(corrections: readonly UserEvent[]): Order[] {
  const orders: Order[] = [];
  for (const event of corrections) {
    if (event.kind !== 'order') continue;
    const { order } = event;
    if (
      order.synthesized === true &&
      order.orderState === 'CANCELLED' &&
      order.reason === UNKNOWN_ORDER_REASON
    )
      orders.push(order);
  }
  return orders;
}

/**
 * The warning for orders the venue forgot, for the log and the result.
 * @param orders - from {@link forgottenOrders}, at least one
 * @param ts - when the reconciliation (or the lookups) found them, epoch ms
 * @param found - how they were found, before the time: default "at the reconciliation of"
 * @returns one sentence
 */
export function forgottenOrdersWarning(
  orders: readonly Order[],
  ts: number,
  found = 'at the reconciliation of',
): string {
  const refs = orders.map((order) => order.clientOrderId);
  const shown =
    refs.length > 5 ? `${refs.slice(0, 5).join(', ')} and ${refs.length - 5} more` : refs.join(', ');
  return (
    `the venue did not know ${orders.length} order${orders.length === 1 ? '' : 's'} it had acknowledged (${shown}) ` +
    `${found} ${new Date(ts).toISOString()}: it may have lost its state (restarted without its data?); ` +
    "Keel marked them CANCELLED and took the venue's positions and balances as they are"
  );
}
