import {
  type CancelOrderIntent,
  type CancelOrdersIntent,
  formatDecimal,
  type ModifyOrderIntent,
  type PlaceOrderIntent,
  parseSym,
} from '../../model/index.ts';
import { RequestRuleError } from '../errors.ts';
import { placeOrderBodyFromIntent } from '../mapping/order-mapping.ts';
import { placeOrderArgsFromIntent } from '../mapping/place-order-args-mapping.ts';
import type { CancelOrderBody, CancelOrdersBody, ReplaceOrderBody } from '../wire/order.ts';
import { placeOrderArgsProblem } from '../wire/place-order-message.ts';
import { PLACE_ORDER_ACTION } from '../wire/ws-envelope.ts';

/** A request ready for the private WebSocket. */
export interface OrderEntryRequest<A extends object = object> {
  readonly action: string;
  readonly args: A;
  /** The clientOrderId / reference: the idempotency key and lookup key of the order. */
  readonly clientOrderId: string;
}

/** The longest clientOrderId the venue accepts (per public venue docs). */
export const MAX_CLIENT_ORDER_ID = 40;

/**
 * Builds the place-order request: the spec's PLACE_ORDER for US equities, the public venue's
 * `place_order` for crypto syms. Arguments are checked against the spec's rules before anything
 * is sent.
 * @param intent - the place-order intent
 * @param brokerClientId - the client account id (PLACE_ORDER only)
 * @param newReference - makes a UUID when the intent carries no ref
 * @returns the request
 * @throws RequestRuleError naming the argument that breaks a rule
 */
export function placeOrderRequest(
  intent: PlaceOrderIntent,
  brokerClientId: string,
  newReference: () => string,
): OrderEntryRequest {
  const withRef = intent.ref === '' ? { ...intent, ref: newReference() } : intent;
  if (withRef.ref.length > MAX_CLIENT_ORDER_ID) {
    throw new RequestRuleError('ref', `clientOrderId must be at most ${MAX_CLIENT_ORDER_ID} characters`);
  }
  if (!withRef.qty.isPositive() || withRef.qty.isZero())
    throw new RequestRuleError('qty', 'must be positive');
  if (
    withRef.orderType === 'LIMIT' &&
    (withRef.price === undefined || !withRef.price.isPositive() || withRef.price.isZero())
  ) {
    throw new RequestRuleError('price', 'a limit order needs a positive price');
  }
  if (parseSym(withRef.sym).kind === 'equity') {
    const args = placeOrderArgsFromIntent(withRef, brokerClientId);
    const problem = placeOrderArgsProblem(args);
    if (problem !== undefined) throw problem;
    return { action: PLACE_ORDER_ACTION, args, clientOrderId: withRef.ref };
  }
  return { action: 'place_order', args: placeOrderBodyFromIntent(withRef), clientOrderId: withRef.ref };
}

/**
 * Builds the order-modification request (`replace_order`; message shape not shown by the spec,
 * Keel's choice: the REST order's field names).
 * @param intent - the modify intent
 * @returns the request
 * @throws RequestRuleError when neither quantity nor price changes
 */
export function replaceOrderRequest(intent: ModifyOrderIntent): OrderEntryRequest<ReplaceOrderBody> {
  if (intent.qty === undefined && intent.price === undefined) {
    throw new RequestRuleError('modifyOrder', 'must change qty, price or both');
  }
  const args: ReplaceOrderBody = {
    clientOrderId: intent.target,
    sym: intent.sym,
    ...(intent.qty === undefined ? {} : { orderQty: formatDecimal(intent.qty) }),
    ...(intent.price === undefined ? {} : { limitPrice: formatDecimal(intent.price) }),
  };
  return { action: 'replace_order', args, clientOrderId: intent.target };
}

/**
 * Builds the cancel request (`cancel_order`).
 * @param intent - the cancel intent
 * @returns the request
 */
export function cancelOrderRequest(intent: CancelOrderIntent): OrderEntryRequest<CancelOrderBody> {
  const args: CancelOrderBody = { clientOrderId: intent.target, sym: intent.sym };
  return { action: 'cancel_order', args, clientOrderId: intent.target };
}

/**
 * Builds the batch cancellation request (`cancel_orders`; shape not shown by the spec, Keel's
 * choice: a sym filter and / or clientOrderIds).
 * @param intent - the batch cancel intent
 * @returns the request (clientOrderId is the intent's ref)
 */
export function cancelOrdersRequest(intent: CancelOrdersIntent): OrderEntryRequest<CancelOrdersBody> {
  const args: CancelOrdersBody = {
    ...(intent.sym === undefined ? {} : { sym: intent.sym }),
    ...(intent.targets === undefined ? {} : { clientOrderIds: intent.targets }),
  };
  return { action: 'cancel_orders', args, clientOrderId: intent.ref };
}
