import type {
  Dec,
  OrderCondition,
  OrderSide,
  OrderType,
  PositionSide,
  TimeInForce,
  TpSl,
} from '../../core/model/index.ts';
import { asNumber, ZERO } from '../../core/model/index.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimPosition } from './sim-position.ts';
import { nextId, type SimState } from './sim-state.ts';
import { venueNow } from './venue-time.ts';

/** What a new order is made of. */
export interface NewOrderFields {
  readonly clientOrderId: string;
  readonly sym: string;
  readonly side: OrderSide;
  readonly orderType: OrderType;
  readonly timeInForce: TimeInForce;
  readonly qty: Dec;
  /** The quote amount of a quote-sized market order (qty zero until sized); absent otherwise. */
  readonly quoteQty?: Dec;
  /** Zero for market orders. */
  readonly price: Dec;
  readonly reduceOnly: boolean;
  readonly positionSide: PositionSide;
  readonly tp?: TpSl;
  readonly sl?: TpSl;
  readonly condition?: OrderCondition;
  readonly extendedTrading?: boolean;
  readonly ignoresTradingHours?: boolean;
  readonly expiryDate?: string;
  readonly expireAt?: number;
  readonly algoOrderId?: string;
  readonly liquidation?: boolean;
}

/**
 * Creates and registers an order record (state NEW, not yet working or on the book).
 * @param state - the venue
 * @param fields - the order's fields
 * @returns the record
 */
export function createOrder(state: SimState, fields: NewOrderFields): SimOrder {
  const seq = state.nextId;
  const order: SimOrder = {
    orderId: nextId(state, 'O'),
    clientOrderId: fields.clientOrderId,
    sym: fields.sym,
    side: fields.side,
    sign: fields.side === 'BUY' ? 1 : -1,
    orderType: fields.orderType,
    timeInForce: fields.timeInForce,
    positionSide: fields.positionSide,
    reduceOnly: fields.reduceOnly,
    quoteQty: fields.quoteQty || undefined,
    qty: fields.qty,
    price: fields.price,
    priceN: fields.orderType === 'MARKET' ? Number.NaN : asNumber(fields.price),
    filled: ZERO,
    remainingN: asNumber(fields.qty),
    amount: ZERO,
    avgPrice: ZERO,
    fee: ZERO,
    feeCoin: state.opts.instruments.get(fields.sym)?.settleAsset ?? '',
    state: 'NEW',
    // Absent optional fields are undefined rather than missing: one object shape for every order,
    // built without a spread per field (the views read them as absent either way).
    tp: fields.tp || undefined,
    sl: fields.sl || undefined,
    condition: fields.condition || undefined,
    extendedTrading: fields.extendedTrading ?? false,
    ignoresTradingHours: fields.ignoresTradingHours ?? false,
    expiryDate: fields.expiryDate || undefined,
    algoOrderId: fields.algoOrderId || undefined,
    expireAt: fields.expireAt ?? Number.POSITIVE_INFINITY,
    queueAhead: 0,
    queueUnexplained: 0,
    crossed: false,
    working: false,
    marginAtFill: false,
    seq,
    liquidation: fields.liquidation ?? false,
    createAt: state.now,
    receivedAt: venueNow(state),
    updateAt: state.now,
  };
  state.ordersByRef.set(order.clientOrderId, order);
  state.liveOrders.add(order);
  state.deadline = Math.min(state.deadline, order.expireAt);
  return order;
}

/**
 * The order that closes a whole position at market: the other side, its full quantity, IOC,
 * reduce-only, on its position side. Used by close-position commands and by liquidation.
 * @param position - the position to close (non-zero)
 * @param clientOrderId - the close order's reference
 * @returns the new order's fields
 */
export function marketCloseOf(position: SimPosition, clientOrderId: string): NewOrderFields {
  return {
    clientOrderId,
    sym: position.sym,
    side: position.qty.gt(0) ? 'SELL' : 'BUY',
    orderType: 'MARKET',
    timeInForce: 'IOC',
    qty: position.qty.abs(),
    price: ZERO,
    reduceOnly: true,
    positionSide: position.positionSide,
  };
}

/**
 * Whether an order is still live (not final).
 * @param order - the order
 * @returns true for NEW, OPEN and PARTIALLY_FILLED
 */
export function isLive(order: SimOrder): boolean {
  return order.state === 'NEW' || order.state === 'OPEN' || order.state === 'PARTIALLY_FILLED';
}
