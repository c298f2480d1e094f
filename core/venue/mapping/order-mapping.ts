import {
  type Dec,
  formatDecimal,
  type Order,
  type OrderAction,
  type OrderType,
  type PlaceOrderIntent,
  parseDecimal,
  type TimeInForce,
  type TpSl,
  VENUE_TIMES_IN_FORCE,
  ZERO,
} from '../../model/index.ts';
import { RequestRuleError } from '../errors.ts';
import type { OrderWire, PlaceOrderBody } from '../wire/order.ts';

const TIME_IN_FORCE = new Set<string>(['GTC', 'IOC', 'FOK', 'GTX', 'DAY', 'GTD', 'FAK']);
const ACTIONS = new Set<string>([
  'PLACE',
  'CANCEL_PENDING',
  'CANCEL_COMPLETED',
  'AMEND_COMPLETED',
  'FILL',
  'EXPIRE',
  'REJECT',
]);

/**
 * Parses an optional decimal field.
 * @param text - the field, maybe absent
 * @param field - its name for errors
 * @returns the Decimal, zero when absent
 */
export function decOrZero(text: string | undefined, field: string): Dec {
  return text === undefined || text === '' ? ZERO : parseDecimal(text, field);
}

function tpSl(
  trigger: string | undefined,
  type: string | undefined,
  price: string | undefined,
): TpSl | undefined {
  if (trigger === undefined) return undefined;
  return {
    triggerPrice: parseDecimal(trigger, 'triggerPrice'),
    triggerType: type === 'LastPrice' ? 'LastPrice' : 'MarkPrice',
    price: decOrZero(price, 'price'),
  };
}

/**
 * The model's order type of a wire order. LIMIT / MARKET per public venue docs; any other text (a
 * liquidation or ADL order the docs do not list) is Keel's choice: LIMIT when the order carries a
 * non-zero limit price, MARKET otherwise, so the order's update is kept rather than dropped.
 * @param text - the wire orderType
 * @param limitPrice - the wire limitPrice, maybe absent
 * @returns LIMIT or MARKET
 */
function orderTypeFromWire(text: string, limitPrice: string | undefined): OrderType {
  const upper = text.toUpperCase();
  if (upper === 'LIMIT' || upper === 'MARKET') return upper;
  return limitPrice !== undefined && limitPrice !== '' && !decOrZero(limitPrice, 'limitPrice').isZero()
    ? 'LIMIT'
    : 'MARKET';
}

/**
 * Maps a decoded wire order to Keel's Order.
 * @param wire - the order from REST or the Orders channel
 * @returns the model order
 */
export function orderFromWire(wire: OrderWire): Order {
  const tp = tpSl(wire.tpTriggerPrice, wire.tpTriggerType, wire.tpPrice);
  const sl = tpSl(wire.slTriggerPrice, wire.slTriggerType, wire.slPrice);
  const timeInForce = (
    wire.timeInForce !== undefined && TIME_IN_FORCE.has(wire.timeInForce) ? wire.timeInForce : 'GTC'
  ) as TimeInForce;
  return {
    orderId: wire.orderId,
    clientOrderId: wire.clientOrderId ?? '',
    portfolioId: wire.portfolioId ?? '',
    sym: wire.sym,
    side: wire.side,
    orderType: orderTypeFromWire(wire.orderType, wire.limitPrice),
    timeInForce,
    orderState: wire.orderState,
    orderQty: parseDecimal(wire.orderQty, 'orderQty'),
    limitPrice: decOrZero(wire.limitPrice, 'limitPrice'),
    executedQty: decOrZero(wire.executedQty, 'executedQty'),
    executedAmount: decOrZero(wire.executedAmount, 'executedAmount'),
    executedAvgPrice: decOrZero(wire.executedAvgPrice, 'executedAvgPrice'),
    fee: decOrZero(wire.fee, 'fee'),
    feeCoin: wire.feeCoin ?? '',
    reduceOnly: wire.reduceOnly ?? false,
    positionSide: wire.positionSide ?? 'NONE',
    ...(tp === undefined ? {} : { tp }),
    ...(sl === undefined ? {} : { sl }),
    ...(wire.action !== undefined && ACTIONS.has(wire.action) ? { action: wire.action as OrderAction } : {}),
    ...(wire.actionMsg === undefined ? {} : { actionMsg: wire.actionMsg }),
    ...(wire.amendType === undefined ? {} : { amendType: wire.amendType }),
    ...(wire.cancelType === undefined ? {} : { cancelType: wire.cancelType }),
    ...(wire.reason === undefined ? {} : { reason: wire.reason }),
    ...(wire.algoOrderId === undefined ? {} : { algoOrderId: wire.algoOrderId }),
    createAt: wire.createAt,
    updateAt: wire.updateAt ?? wire.createAt,
  };
}

/** The wire fields of the take-profit and stop-loss attachments. */
type TpSlWireFields = Pick<
  PlaceOrderBody,
  'tpTriggerPrice' | 'tpTriggerType' | 'tpPrice' | 'slTriggerPrice' | 'slTriggerType' | 'slPrice'
>;

/**
 * The wire fields of an order's or intent's attachments: the three tp fields when tp is set, the
 * three sl fields when sl is set, none for an absent one.
 */
function tpSlToWire(tp: TpSl | undefined, sl: TpSl | undefined): TpSlWireFields {
  return {
    ...(tp === undefined
      ? {}
      : {
          tpTriggerPrice: formatDecimal(tp.triggerPrice),
          tpTriggerType: tp.triggerType,
          tpPrice: formatDecimal(tp.price),
        }),
    ...(sl === undefined
      ? {}
      : {
          slTriggerPrice: formatDecimal(sl.triggerPrice),
          slTriggerType: sl.triggerType,
          slPrice: formatDecimal(sl.price),
        }),
  };
}

/**
 * Maps Keel's Order back to the wire (server side: paper venue replies and pushes).
 * @param order - the model order
 * @returns the wire order
 */
export function orderToWire(order: Order): OrderWire {
  const state = order.orderState;
  return {
    orderId: order.orderId,
    clientOrderId: order.clientOrderId,
    portfolioId: order.portfolioId,
    sym: order.sym,
    side: order.side,
    orderType: order.orderType,
    orderState:
      state === 'PENDING_NEW'
        ? 'NEW'
        : state === 'PENDING_CANCEL' || state === 'PENDING_REPLACE'
          ? 'OPEN'
          : state,
    orderQty: formatDecimal(order.orderQty),
    limitPrice: formatDecimal(order.limitPrice),
    timeInForce: order.timeInForce,
    executedQty: formatDecimal(order.executedQty),
    executedAmount: formatDecimal(order.executedAmount),
    executedAvgPrice: formatDecimal(order.executedAvgPrice),
    fee: formatDecimal(order.fee),
    feeCoin: order.feeCoin,
    reduceOnly: order.reduceOnly,
    positionSide: order.positionSide,
    ...tpSlToWire(order.tp, order.sl),
    ...(order.action === undefined ? {} : { action: order.action }),
    ...(order.actionMsg === undefined ? {} : { actionMsg: order.actionMsg }),
    ...(order.amendType === undefined ? {} : { amendType: order.amendType }),
    ...(order.cancelType === undefined ? {} : { cancelType: order.cancelType }),
    ...(order.reason === undefined ? {} : { reason: order.reason }),
    ...(order.algoOrderId === undefined ? {} : { algoOrderId: order.algoOrderId }),
    createAt: order.createAt,
    updateAt: order.updateAt,
  };
}

/**
 * Maps a crypto place-order intent to the REST / `place_order` body.
 * @param intent - the place-order intent; `ref` becomes clientOrderId
 * @returns the body
 * @throws RequestRuleError when its time in force is one the venue's crypto orders do not take
 *   (DAY, GTD): sent without it, the order would rest as GTC
 */
export function placeOrderBodyFromIntent(intent: PlaceOrderIntent): PlaceOrderBody {
  if (!VENUE_TIMES_IN_FORCE.crypto.has(intent.timeInForce)) {
    throw new RequestRuleError(
      'timeInForce',
      `${intent.timeInForce} is not a time in force of crypto orders`,
    );
  }
  const tif = intent.timeInForce === 'FAK' ? 'IOC' : intent.timeInForce;
  return {
    sym: intent.sym,
    side: intent.side,
    orderType: intent.orderType,
    orderQty: formatDecimal(intent.qty),
    limitPrice:
      intent.orderType === 'MARKET' || intent.price === undefined ? '0' : formatDecimal(intent.price),
    clientOrderId: intent.ref,
    timeInForce: tif as 'GTC' | 'IOC' | 'FOK' | 'GTX',
    ...(intent.quoteOrderQty === undefined ? {} : { quoteOrderQty: formatDecimal(intent.quoteOrderQty) }),
    reduceOnly: intent.reduceOnly,
    positionSide: intent.positionSide,
    ...tpSlToWire(intent.tp, intent.sl),
  };
}
