import type { Order } from '../model/index.ts';

/**
 * Opens the key of an order placed without a clientOrderId. Keel's choice: a NUL character, which
 * no reference Keel generates holds and no venue reference is expected to, so such a key never
 * equals an order's clientOrderId, and the lineage rules (`-tp`, `-1`...) find no parent in it.
 */
const UNREFERENCED = '\u0000';

/**
 * The key the kernel holds an order by: its clientOrderId, which is what strategies name their
 * orders by. An order placed by hand on the venue may have none ('' names no order), and two such
 * orders would share the key '': one holds the key made from its orderId instead, unique and
 * stable for as long as the venue reports it.
 * @param order - the order as the venue reported it or Keel holds it
 * @returns the clientOrderId, or a key made from the orderId when the clientOrderId is ''
 */
export function orderKey(order: Pick<Order, 'clientOrderId' | 'orderId'>): string {
  return order.clientOrderId === '' ? `${UNREFERENCED}${order.orderId}` : order.clientOrderId;
}
