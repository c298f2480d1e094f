import type {
  ConditionCode,
  Order,
  OrderSide,
  PlaceOrderIntent,
  TimeInForce,
  TpSl,
  UserEvent,
} from '../../core/model/index.ts';
import { parseDecimal, tpSlSideProblem, ZERO } from '../../core/model/index.ts';
import {
  DecodeError,
  decodeWire,
  type OrderAckWire,
  type PlaceOrderAckData,
  type PlaceOrderArgs,
  placeOrderArgsProblem,
  placeOrderArgsSchema,
  placeOrderBodySchema,
} from '../../core/venue/index.ts';
import { badParameter, errorFromReason, refusalOf, simError } from './envelope.ts';
import { equityPositionSide } from './equity-position-side.ts';
import type { PortfolioBook } from './portfolio-book.ts';
import { optionalDecimal, optionalList, optionalText, type Params } from './request-fields.ts';

function decoded<T>(schema: Parameters<typeof decodeWire>[0], params: Params, where: string): T {
  try {
    return decodeWire(schema, params, where) as T;
  } catch (error) {
    if (error instanceof DecodeError)
      throw badParameter(where, `${error.path} ${error.issues[0]?.problem ?? ''}`);
    throw error;
  }
}

/** The outcome of a place command: the order as accepted, or the refusal. */
function placed(book: PortfolioBook, ref: string, events: readonly UserEvent[]): Order {
  for (const event of events) {
    if (event.kind === 'commandRejected' && event.ref === ref) throw errorFromReason(event.message);
    if (event.kind === 'order' && event.order.clientOrderId === ref) {
      if (event.order.orderState === 'REJECTED') throw errorFromReason(event.order.reason ?? 'rejected');
      return event.order;
    }
  }
  const order = book.findOrder(undefined, ref);
  if (order) return order;
  throw simError('BAD_PARAMETERS', `order ${ref} produced no update`);
}

/**
 * A take-profit or stop-loss attachment of a place-order request; its price or trigger type
 * without a trigger price is refused, not dropped (the order would go out unprotected).
 */
function tpSl(params: Params, prefix: 'tp' | 'sl', where: string): TpSl | undefined {
  const triggerPrice = optionalDecimal(params, `${prefix}TriggerPrice`, where);
  const type = optionalText(params, `${prefix}TriggerType`, where);
  const price = optionalDecimal(params, `${prefix}Price`, where);
  if (triggerPrice === undefined) {
    const orphan =
      price !== undefined ? `${prefix}Price` : type !== undefined ? `${prefix}TriggerType` : undefined;
    if (orphan === undefined) return undefined;
    throw badParameter(`${where} ${prefix}TriggerPrice`, `is required with ${orphan}`);
  }
  return {
    triggerPrice,
    triggerType: type === 'LastPrice' ? 'LastPrice' : 'MarkPrice',
    price: price ?? parseDecimal('0'),
  };
}

/**
 * Places an order from the REST body or the `place_order` args (per public venue docs).
 * @param book - the portfolio
 * @param params - sym, side, orderType, orderQty, limitPrice, clientOrderId...
 * @param where - the request, for errors
 * @returns the ack data {orderId, clientOrderId, orderState}
 * @throws PaperApiError with the venue's code when the body is malformed or the order is rejected;
 *   400001 when a limit order's tp or sl triggers on the wrong side of its price (Keel's rule,
 *   {@link tpSlSideProblem})
 */
export function placeOrder(book: PortfolioBook, params: Params, where: string): OrderAckWire {
  const body = decoded<{
    sym: string;
    side: OrderSide;
    orderType: 'LIMIT' | 'MARKET';
    orderQty: string;
    limitPrice?: string;
    clientOrderId?: string;
    timeInForce?: TimeInForce;
    quoteOrderQty?: string;
    reduceOnly?: boolean;
    positionSide?: 'NONE' | 'LONG' | 'SHORT';
  }>(placeOrderBodySchema, params, where);
  const ref = body.clientOrderId ?? book.newRef('order');
  const tp = tpSl(params, 'tp', where);
  const sl = tpSl(params, 'sl', where);
  if (body.orderType === 'LIMIT' && body.limitPrice !== undefined) {
    const side = tpSlSideProblem(
      body.side,
      parseDecimal(body.limitPrice, 'limitPrice'),
      tp?.triggerPrice,
      sl?.triggerPrice,
    );
    if (side !== undefined) throw badParameter(where, side);
  }
  const intent: PlaceOrderIntent = {
    kind: 'placeOrder',
    ref,
    sym: body.sym,
    side: body.side,
    orderType: body.orderType,
    qty: parseDecimal(body.orderQty, 'orderQty'),
    ...(body.limitPrice === undefined ? {} : { price: parseDecimal(body.limitPrice, 'limitPrice') }),
    timeInForce: body.timeInForce ?? 'GTC',
    reduceOnly: body.reduceOnly ?? false,
    positionSide: body.positionSide ?? 'NONE',
    ...(tp ? { tp } : {}),
    ...(sl ? { sl } : {}),
    ...(body.quoteOrderQty === undefined
      ? {}
      : { quoteOrderQty: parseDecimal(body.quoteOrderQty, 'quoteOrderQty') }),
  };
  const order = placed(book, ref, book.run(intent));
  return { orderId: order.orderId, clientOrderId: ref, orderState: 'NEW' };
}

const VALIDITY: Readonly<Record<string, TimeInForce>> = {
  Day: 'DAY',
  FAK: 'FAK',
  FOK: 'FOK',
  GTD: 'GTD',
  GTC: 'GTC',
};

/**
 * Places an order from the spec's PLACE_ORDER args (US equities: sym `US_EQUITY_{productCode}`).
 * Every rule of the spec's args table is checked first (missing triggerPrice for UT, GTD without
 * orderExpiryDate, a market order with a price other than "0"...). In BOTH mode without a
 * positionSide arg a SELL closes the LONG leg held, else sells short, and a BUY covers the SHORT
 * leg held, else buys long (Keel's choice, see {@link equityPositionSide}). The spec's brokerClientId is "the client account for the request":
 * one other than the logged-in portfolio's id is refused with 400001 (Keel's choice of code: the
 * spec names none), not booked on the logged-in portfolio, so a wrong `venue.brokerClientId`
 * shows on paper.
 * @param book - the portfolio
 * @param params - the PLACE_ORDER args
 * @returns PLACE_ORDER_ACK data {orderNo, orderStatus: NEW}
 * @throws PaperApiError 400001 naming the broken rule or a brokerClientId of another account, or
 *   the sim's code when rejected
 */
export function placeEquityOrder(book: PortfolioBook, params: Params): PlaceOrderAckData {
  const args = decoded<PlaceOrderArgs>(placeOrderArgsSchema, params, 'PLACE_ORDER args');
  const problem = placeOrderArgsProblem(args);
  if (problem !== undefined) throw badParameter(problem.field, problem.rule);
  if (args.brokerClientId !== book.portfolioId)
    throw badParameter(
      'PLACE_ORDER args.brokerClientId',
      `is not the account this login trades for (${book.portfolioId})`,
    );
  const ref = args.reference ?? book.newPlaceOrderReference();
  const code = args.conditionCode ?? '';
  const sym = `US_EQUITY_${args.productCode}`;
  const side = args.bsFlag === 'B' ? 'BUY' : 'SELL';
  const qty = parseDecimal(String(args.qty), 'qty');
  const legQty = (leg: 'LONG' | 'SHORT') => book.positions.get(`${sym}|${leg}`)?.positionQty ?? ZERO;
  const intent: PlaceOrderIntent = {
    kind: 'placeOrder',
    ref,
    sym,
    side,
    orderType: args.orderType === 'M' ? 'MARKET' : 'LIMIT',
    qty,
    ...(args.orderType === 'L' ? { price: parseDecimal(args.price, 'price') } : {}),
    timeInForce: VALIDITY[args.orderValidity ?? 'Day'] ?? 'DAY',
    ...(args.orderExpiryDate === undefined ? {} : { expiryDate: args.orderExpiryDate }),
    reduceOnly: false,
    positionSide: equityPositionSide(params, book.positionMode, side, qty, legQty),
    ...(code === ''
      ? {}
      : {
          condition: {
            code: code as ConditionCode,
            ...(args.triggerPrice === undefined
              ? {}
              : { triggerPrice: parseDecimal(args.triggerPrice, 'triggerPrice') }),
            ...(args.stopPrice === undefined ? {} : { stopPrice: parseDecimal(args.stopPrice, 'stopPrice') }),
            ...(args.timeToSend === undefined ? {} : { timeToSend: args.timeToSend }),
          },
        }),
    ...(args.extendedTrading === undefined ? {} : { extendedTrading: args.extendedTrading }),
  };
  const order = placed(book, ref, book.run(intent));
  return { orderNo: order.orderId, orderStatus: 'NEW' };
}

/**
 * The order a modify, cancel or query names. Every name it gives must fit the one order: an
 * orderId and a clientOrderId of two orders, or a sym other than the order's, name no order and
 * are refused with 401018 rather than acted on by one of them (Keel's choice of code: the spec
 * names none; the public venue docs answer an order not found so).
 */
function targetOf(book: PortfolioBook, params: Params, where: string): Order {
  const orderId = optionalText(params, 'orderId', where);
  const clientOrderId = optionalText(params, 'clientOrderId', where);
  const sym = optionalText(params, 'sym', where);
  if (orderId === undefined && clientOrderId === undefined)
    throw badParameter(where, 'needs orderId or clientOrderId');
  const order = book.findOrder(orderId, clientOrderId);
  if (!order) throw simError('ORDER_NOT_FOUND', `no order ${orderId ?? clientOrderId}`);
  if (clientOrderId !== undefined && order.clientOrderId !== clientOrderId)
    throw simError('ORDER_NOT_FOUND', `no order ${orderId} with clientOrderId ${clientOrderId}`);
  if (sym !== undefined && order.sym !== sym)
    throw simError('ORDER_NOT_FOUND', `no order ${orderId ?? clientOrderId} on ${sym}`);
  return order;
}

/**
 * Modifies an open order's quantity and / or price (REST PUT and `replace_order`).
 * @param book - the portfolio
 * @param params - orderId or clientOrderId, orderQty, limitPrice
 * @param where - the request, for errors
 * @returns the ack data with action AMEND_COMPLETED
 * @throws PaperApiError 401018 when unknown, 401058 when final, 400001 when nothing changes or
 *   the amended order fails placement's size checks (maxLimitSize, minNotional...), 401023 when
 *   the margin cannot carry the amended order (it stays as it was)
 */
export function replaceOrder(book: PortfolioBook, params: Params, where: string): OrderAckWire {
  const target = targetOf(book, params, where);
  const qty = optionalDecimal(params, 'orderQty', where);
  const price = optionalDecimal(params, 'limitPrice', where);
  if (qty === undefined && price === undefined)
    throw badParameter(where, 'must change orderQty, limitPrice or both');
  const ref = book.newRef('amend');
  const events = book.run({
    kind: 'modifyOrder',
    ref,
    target: target.clientOrderId,
    sym: target.sym,
    ...(qty === undefined ? {} : { qty }),
    ...(price === undefined ? {} : { price }),
  });
  const error = refusalOf(ref, events);
  if (error) throw error;
  const after = book.findOrder(target.orderId) ?? target;
  return {
    orderId: after.orderId,
    clientOrderId: after.clientOrderId,
    orderState: after.orderState,
    action: 'AMEND_COMPLETED',
  };
}

/**
 * Cancels one order (REST DELETE and `cancel_order`). Per public venue docs the reply only says
 * the request was accepted, with the order still in the state it was in (OPEN for an order resting
 * on the book) and action CANCEL_PENDING; the final state comes on the Orders channel. An order not
 * resting yet (held by a condition, waiting for a first price) answers NEW, one filled in part
 * PARTIALLY_FILLED (Keel's reading: the docs show only the resting case).
 * @param book - the portfolio
 * @param params - orderId or clientOrderId
 * @param where - the request, for errors
 * @returns the ack data
 * @throws PaperApiError 401018 when unknown, 401058 when already final
 */
export function cancelOrder(book: PortfolioBook, params: Params, where: string): OrderAckWire {
  const target = targetOf(book, params, where);
  const ref = book.newRef('cancel');
  const error = refusalOf(
    ref,
    book.run({ kind: 'cancelOrder', ref, target: target.clientOrderId, sym: target.sym }),
  );
  if (error) throw error;
  return {
    orderId: target.orderId,
    clientOrderId: target.clientOrderId,
    orderState: target.orderState,
    action: 'CANCEL_PENDING',
    actionMsg: 'cancel accepted; the final state follows on the Orders channel',
  };
}

/**
 * Cancels many orders: those listed by clientOrderId, or every open order (of `sym` when given)
 * (REST `DELETE /api/v1/trading/cancelAll` and `cancel_orders`; Keel's choice of body).
 * @param book - the portfolio
 * @param params - sym and / or clientOrderIds
 * @param where - the request, for errors
 * @returns the cancelled orders' ids
 * @throws PaperApiError when the sim refuses
 */
export function cancelOrders(
  book: PortfolioBook,
  params: Params,
  where: string,
): { orderIds: string[]; clientOrderIds: string[] } {
  const sym = optionalText(params, 'sym', where);
  const listed = optionalList(params, 'clientOrderIds', where);
  const open = [...book.orders.values()].filter(
    (o) =>
      (o.orderState === 'NEW' || o.orderState === 'OPEN' || o.orderState === 'PARTIALLY_FILLED') &&
      (sym === undefined || o.sym === sym) &&
      (listed === undefined || listed.includes(o.clientOrderId)),
  );
  const ref = book.newRef('cancel-all');
  const targets = open.map((o) => o.clientOrderId);
  const error = refusalOf(
    ref,
    book.run({ kind: 'cancelOrders', ref, targets, ...(sym === undefined ? {} : { sym }) }),
  );
  if (error) throw error;
  return { orderIds: open.map((o) => o.orderId), clientOrderIds: targets };
}

/**
 * The order a query names (REST `GET /api/v1/trading/order`).
 * @param book - the portfolio
 * @param params - orderId or clientOrderId
 * @param where - the request, for errors
 * @returns the order
 * @throws PaperApiError 401018 when unknown
 */
export function queryOrder(book: PortfolioBook, params: Params, where: string): Order {
  return targetOf(book, params, where);
}
