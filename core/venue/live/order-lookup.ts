import type { Logger } from 'pino';
import type { Order } from '../../model/index.ts';
import {
  isKnownOrderState,
  listedOrderFromWire,
  orderFromWire,
  unlistedOrderFromWire,
} from '../mapping/order-mapping.ts';
import type { VenueRestClient } from '../rest/rest-client.ts';
import type { OrderRef } from '../wire/order.ts';
import { notFoundOrThrow } from './lookup-failure.ts';

/**
 * Venue codes that refuse the query itself (400001 bad parameters, 400009 bad symbol): the same
 * query is refused again, so a lookup they end failed for good.
 */
const QUERY_REFUSED_CODES: ReadonlySet<number> = new Set([400001, 400009]);

/** Which order to look up. */
export interface OrderLookupTarget {
  readonly sym: string;
  /** The caller reference; '' for an order placed without one (by hand, elsewhere). */
  readonly clientOrderId: string;
  /** The venue's id, when known. */
  readonly orderId?: string | undefined;
}

/**
 * The query of one order (`GET /api/v1/trading/order` takes orderId or clientOrderId): by
 * clientOrderId, Keel's own reference, known from the moment an order is sent and the key Keel
 * holds its orders by; by orderId only for an order without one, since an empty clientOrderId
 * names no order (the venue may refuse it, 400001, for good).
 * @param target - the order
 * @returns the query
 */
function orderLookupQuery(target: OrderLookupTarget): OrderRef {
  const { clientOrderId, orderId } = target;
  return clientOrderId === '' && orderId !== undefined && orderId !== '' ? { orderId } : { clientOrderId };
}

/**
 * Looks one order up. An answer in an orderState Keel does not know is read against the venue's
 * open orders of the sym: open when listed there, ended otherwise (see `listedOrderFromWire` and
 * `unlistedOrderFromWire`), so an IOC order the venue ended in a state the docs do not list gets
 * an outcome rather than an answer that cannot be decoded.
 * @param rest - the REST client
 * @param target - the order
 * @param logger - where a lookup that failed for good is logged, at error
 * @returns the venue's order, or undefined when the venue answers 401018 (order not found)
 * @throws LastingLookupFailure when asking again will not help: the answer cannot be decoded, or
 *   the venue refuses the query itself (400001, 400009)
 * @throws the REST client's error for a failure that may pass (no answer, 5xx, 40000, 429, 7000...)
 */
export async function lookUpOrder(
  rest: VenueRestClient,
  target: OrderLookupTarget,
  logger: Logger,
): Promise<Order | undefined> {
  const query = orderLookupQuery(target);
  try {
    const wire = await rest.getOrder(query);
    if (isKnownOrderState(wire.orderState)) return orderFromWire(wire);
    const open = await rest.getOpenOrders({ sym: target.sym });
    return open.some((listed) => listed.orderId === wire.orderId)
      ? listedOrderFromWire(wire)
      : unlistedOrderFromWire(wire);
  } catch (error) {
    return notFoundOrThrow(error, { what: 'order', query, sym: target.sym }, QUERY_REFUSED_CODES, logger);
  }
}
