import type {
  ExecutionEvent,
  LiquidationNodeType,
  Order,
  OrderSide,
  UserEvent,
} from '../../core/model/index.ts';
import { D, LIQUIDATION_NODE_TYPES } from '../../core/model/index.ts';
import { anOrderUpdate, aPositionUpdate, BTC } from './kernel-events.ts';
import { anOrder } from './order-builders.ts';

/** The order a venue's fill names: its reference and side at least (BTC, NONE leg, MARKET unless told). */
export type FilledOrder = Partial<Order> & Pick<Order, 'clientOrderId' | 'side'>;

let transactions = 0;

/**
 * A venue's fill of `qty` of an order at 100, stamped `ts`.
 * @param order - the order filled (its orderId defaults to `v-<clientOrderId>`)
 * @param qty - the fill's quantity
 * @param ts - venue time
 * @returns the fill event
 */
export function aFillOf(order: FilledOrder, qty: string, ts: number): ExecutionEvent {
  transactions += 1;
  return {
    kind: 'execution',
    ts,
    recvTs: ts,
    execution: {
      transactionId: `t-${transactions}`,
      portfolioId: 'p-1',
      orderId: order.orderId ?? `v-${order.clientOrderId}`,
      clientOrderId: order.clientOrderId,
      sym: order.sym ?? BTC,
      side: order.side,
      positionSide: order.positionSide ?? 'NONE',
      quantity: D(qty),
      price: D(100),
      fee: D(0),
      feeCoin: 'USDT',
      rebate: D(0),
      rpnl: D(0),
      execType: 'TAKER',
      timestamp: ts,
    },
  };
}

/**
 * A venue's update of an order (MARKET at price 0, of `qty`, NEW unless `update` says otherwise).
 * @param order - the order
 * @param qty - its size
 * @param ts - venue time
 * @param update - fields to replace (orderState, executedQty...)
 * @returns the update event
 */
export function anUpdateOf(order: FilledOrder, qty: string, ts: number, update: Partial<Order> = {}) {
  return anOrderUpdate(
    anOrder({
      orderType: 'MARKET',
      limitPrice: D(0),
      orderQty: D(qty),
      orderState: 'NEW',
      ...order,
      orderId: order.orderId ?? `v-${order.clientOrderId}`,
      createAt: ts,
      updateAt: ts,
      ...update,
    }),
  );
}

/**
 * What a venue pushes when an order fills: the order's update (FILLED at once unless `update` says
 * otherwise), its fill of `qty`, then the order's leg reported at its new size.
 * @param order - the order
 * @param qty - the fill's quantity
 * @param legAfter - the leg's signed size after it
 * @param ts - venue time
 * @param update - fields of the order's update to replace
 * @returns the events, in that order
 */
export function filled(
  order: FilledOrder,
  qty: string,
  legAfter: string,
  ts: number,
  update: Partial<Order> = {},
): UserEvent[] {
  return [
    anUpdateOf(order, qty, ts, { orderState: 'FILLED', executedQty: D(qty), ...update }),
    aFillOf(order, qty, ts),
    aPositionUpdate(ts, legAfter, { sym: order.sym ?? BTC, positionSide: order.positionSide ?? 'NONE' }),
  ];
}

/**
 * A venue's market close of a leg, reduce-only unless told otherwise: NEW, then filled to flat.
 * @param clientOrderId - the name the venue gives it
 * @param side - the side that closes the leg
 * @param qty - the leg's size
 * @param ts - venue time
 * @param overrides - fields of the order to replace (sym, positionSide, reduceOnly)
 * @returns the events
 */
export function venueClose(
  clientOrderId: string,
  side: OrderSide,
  qty: string,
  ts: number,
  overrides: Partial<Order> = {},
): UserEvent[] {
  const order: FilledOrder = { clientOrderId, side, reduceOnly: true, ...overrides };
  return [anUpdateOf(order, qty, ts), ...filled(order, qty, '0', ts)];
}

/**
 * What Keel's simulated venue pushes when a liquidation closes a leg: the liquidation's nodes, the
 * live orders it cancels (after the first node), and between the nodes that place and fill them,
 * its market close of the leg (reduce-only), filled.
 * @param liquidationEventId - the liquidation
 * @param clientOrderId - the name the venue gives its order (the simulated venue's `<event>-<sym>-<side>`)
 * @param side - the side that closes the leg
 * @param qty - the quantity it closes
 * @param legAfter - the leg's signed size after it (a partial liquidation may leave some)
 * @param ts - venue time
 * @param overrides - fields of the order to replace (sym, positionSide)
 * @param cancelled - the updates of the orders it cancels
 * @returns the events, in the simulated venue's order
 */
export function venueLiquidation(
  liquidationEventId: string,
  clientOrderId: string,
  side: OrderSide,
  qty: string,
  legAfter: string,
  ts: number,
  overrides: Partial<Order> = {},
  cancelled: readonly UserEvent[] = [],
): UserEvent[] {
  const node = (nodeType: LiquidationNodeType): UserEvent => ({
    kind: 'liquidationEvent',
    ts,
    recvTs: ts,
    record: {
      liquidationEventId,
      portfolioId: 'p-1',
      eventType: 'PARTIAL_LIQUIDATION',
      nodeType,
      equity: D(10),
      maintainMargin: D(20),
      positions: [],
      timestamp: ts,
    },
  });
  const [triggered, ...rest] = LIQUIDATION_NODE_TYPES.map(node);
  const placedAt = LIQUIDATION_NODE_TYPES.indexOf('LIQUIDATION_ORDERS_PLACED') - 1;
  const order: FilledOrder = { clientOrderId, side, reduceOnly: true, ...overrides };
  return [
    ...(triggered === undefined ? [] : [triggered]),
    ...cancelled,
    ...rest.slice(0, placedAt),
    anUpdateOf(order, qty, ts),
    ...rest.slice(placedAt, placedAt + 1),
    ...filled(order, qty, legAfter, ts),
    ...rest.slice(placedAt + 1),
  ];
}
