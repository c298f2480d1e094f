import {
  type Dec,
  formatDecimal,
  type Order,
  type OrderAction,
  type OrderType,
  type PlaceOrderIntent,
  parseDecimal,
  TIMES_IN_FORCE,
  type TimeInForce,
  type TpSl,
  VENUE_ORDER_STATES,
  VENUE_TIMES_IN_FORCE,
  type VenueOrderState,
  ZERO,
} from '../../model/index.ts';
import { DecodeError, RequestRuleError } from '../errors.ts';
import type { OrderWire, PlaceOrderBody, WireTimeInForce } from '../wire/order.ts';

const KNOWN_STATES: ReadonlySet<string> = new Set(VENUE_ORDER_STATES);
const TIME_IN_FORCE: ReadonlySet<string> = new Set(TIMES_IN_FORCE);
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
 * Whether Keel knows an order state of the wire.
 * @param text - the wire orderState
 * @returns true for the seven public ones (NEW, OPEN, PARTIALLY_FILLED, FILLED, CANCELLED,
 *   REJECTED, FAIL)
 */
export function isKnownOrderState(text: string): text is VenueOrderState {
  return KNOWN_STATES.has(text);
}

/** Which order a venue message names: enough to look it up. */
export interface NamedOrder {
  readonly sym: string;
  /** '' for an order placed without one (by hand). */
  readonly clientOrderId: string;
  readonly orderId: string;
}

/**
 * A wire order in an orderState Keel does not know: it cannot be mapped, but it names an order,
 * which the live client looks up (see {@link listedOrderFromWire} and {@link unlistedOrderFromWire}).
 */
export class UnknownOrderStateError extends DecodeError {
  /** The order the message names. */
  readonly order: NamedOrder;

  /**
   * @param where - what was being decoded (`Orders channel data[0]`)
   * @param wire - the wire order
   */
  constructor(where: string, wire: OrderWire) {
    super(where, [
      { path: 'orderState', problem: `${JSON.stringify(wire.orderState)} is not a state Keel knows` },
    ]);
    this.order = { sym: wire.sym, clientOrderId: wire.clientOrderId ?? '', orderId: wire.orderId };
  }
}

/**
 * Maps a decoded wire order to Keel's Order.
 * @param wire - the order from REST or the Orders channel
 * @param where - what is being decoded, for the error (`Orders channel data[0]`); default the order's id
 * @returns the model order
 * @throws UnknownOrderStateError (a DecodeError) when its orderState is not one of the seven public
 *   ones: whether such an order is still open only the venue's open-orders list tells (see
 *   {@link listedOrderFromWire} and {@link unlistedOrderFromWire}), and a guess could keep a dead
 *   order alive or end a live one
 */
export function orderFromWire(wire: OrderWire, where = `order ${wire.orderId}`): Order {
  if (!isKnownOrderState(wire.orderState)) throw new UnknownOrderStateError(where, wire);
  return mappedOrder(wire, wire.orderState);
}

/**
 * Maps an entry of the venue's open-orders list (`GET /api/v1/trading/orders`). An orderState
 * Keel does not know is taken as open, since the venue lists the order among its open ones:
 * PARTIALLY_FILLED when some of it executed, OPEN otherwise, with a reason naming the venue's
 * state. Keel's choice: adopted rather than skipped, so the risk gate counts it among the open
 * orders (its limits err on the safe side) and reconciliation looks it up once it leaves the list.
 * @param wire - one entry of the open-orders list
 * @returns the model order
 */
export function listedOrderFromWire(wire: OrderWire): Order {
  if (isKnownOrderState(wire.orderState)) return orderFromWire(wire);
  const executed = decOrZero(wire.executedQty, 'executedQty');
  return {
    ...mappedOrder(wire, executed.isZero() ? 'OPEN' : 'PARTIALLY_FILLED'),
    reason: unknownStateReason(wire, 'the venue lists it among the open orders, so Keel takes it as open'),
  };
}

/**
 * Maps an order the venue answered a lookup with but does not list among its open orders. An
 * orderState Keel does not know (an IOC order ended EXPIRED, say) is final then: FILLED when all of
 * it executed, CANCELLED otherwise, marked `synthesized` (the venue's own later word on the order
 * supersedes it) with a reason naming the venue's state.
 * @param wire - the lookup's answer
 * @returns the model order
 */
export function unlistedOrderFromWire(wire: OrderWire): Order {
  if (isKnownOrderState(wire.orderState)) return orderFromWire(wire);
  const executed = decOrZero(wire.executedQty, 'executedQty');
  const filled = executed.gte(parseDecimal(wire.orderQty, 'orderQty')) && !executed.isZero();
  return {
    ...mappedOrder(wire, filled ? 'FILLED' : 'CANCELLED'),
    reason: unknownStateReason(
      wire,
      `the venue no longer lists it among the open orders, so Keel takes it as ended (${filled ? 'FILLED: all of it executed' : 'CANCELLED'})`,
    ),
    synthesized: true,
  };
}

function unknownStateReason(wire: OrderWire, verdict: string): string {
  const venueReason =
    wire.reason === undefined || wire.reason === '' ? '' : ` (venue reason: ${wire.reason})`;
  return `the venue reports orderState ${wire.orderState}, which Keel does not know${venueReason}; ${verdict}`;
}

function mappedOrder(wire: OrderWire, orderState: VenueOrderState): Order {
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
    orderState,
    orderQty: parseDecimal(wire.orderQty, 'orderQty'),
    limitPrice: decOrZero(wire.limitPrice, 'limitPrice'),
    ...(wire.quoteOrderQty === undefined
      ? {}
      : { quoteOrderQty: parseDecimal(wire.quoteOrderQty, 'quoteOrderQty') }),
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
    ...(order.quoteOrderQty === undefined ? {} : { quoteOrderQty: formatDecimal(order.quoteOrderQty) }),
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
 *   (DAY, GTD): sent without it, the order would rest as GTC; or when it carries a condition (UT,
 *   DT...), which crypto orders have no field for: sent without it, the order would go at once
 */
export function placeOrderBodyFromIntent(intent: PlaceOrderIntent): PlaceOrderBody {
  if (!VENUE_TIMES_IN_FORCE.crypto.has(intent.timeInForce)) {
    throw new RequestRuleError(
      'timeInForce',
      `${intent.timeInForce} is not a time in force of crypto orders`,
    );
  }
  if (intent.condition !== undefined) {
    throw new RequestRuleError(
      'condition',
      `${intent.condition.code} is a PLACE_ORDER (US equities) condition: crypto orders carry none`,
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
    timeInForce: tif as WireTimeInForce,
    ...(intent.quoteOrderQty === undefined ? {} : { quoteOrderQty: formatDecimal(intent.quoteOrderQty) }),
    reduceOnly: intent.reduceOnly,
    positionSide: intent.positionSide,
    ...tpSlToWire(intent.tp, intent.sl),
  };
}
