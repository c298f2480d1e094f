import type {
  Dec,
  Order,
  OrderAction,
  OrderCondition,
  OrderSide,
  OrderState,
  OrderType,
  PositionSide,
  TimeInForce,
  TpSl,
} from '../../core/model/index.ts';

/**
 * The simulated venue's mutable record of one order. Decimal fields are the money; the `*N`
 * number mirrors serve the per-market-event matching path.
 */
export interface SimOrder {
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly sym: string;
  readonly side: OrderSide;
  /** +1 for BUY, -1 for SELL. */
  readonly sign: 1 | -1;
  readonly orderType: OrderType;
  readonly timeInForce: TimeInForce;
  readonly positionSide: PositionSide;
  reduceOnly: boolean;
  qty: Dec;
  /** Limit price; zero for market orders. */
  price: Dec;
  priceN: number;
  filled: Dec;
  /** Remaining quantity as a number (qty - filled). */
  remainingN: number;
  amount: Dec;
  fee: Dec;
  feeCoin: string;
  state: OrderState;
  action?: OrderAction;
  actionMsg?: string;
  amendType?: string;
  cancelType?: string;
  reason?: string;
  readonly tp?: TpSl;
  readonly sl?: TpSl;
  condition?: OrderCondition;
  readonly expiryDate?: string;
  /** Virtual time at which a DAY / GTD order expires (Infinity = never). */
  expireAt: number;
  /** Displayed quantity ahead of this order at its price (queue fill model). */
  queueAhead: number;
  /**
   * True while a resting limit crosses the displayed opposite side (it took all the displayed size
   * and still crosses): its next fills are priced at the market, as a taker.
   */
  crossed: boolean;
  /** False while a conditional order is held by the venue, not yet working on the book. */
  working: boolean;
  /** Arrival order, breaking price ties on the book (time priority). */
  readonly seq: number;
  /** The algo order that placed this order, if any. */
  readonly algoOrderId?: string;
  /** True for orders the liquidation process placed. */
  readonly liquidation: boolean;
  readonly createAt: number;
  updateAt: number;
}

/**
 * The venue's view of an order, as the Orders channel reports it.
 * @param order - the sim's record
 * @param portfolioId - the simulated portfolio
 * @returns an immutable Order snapshot
 */
export function orderView(order: SimOrder, portfolioId: string): Order {
  const avg = order.filled.isZero() ? order.filled : order.amount.div(order.filled);
  return {
    orderId: order.orderId,
    clientOrderId: order.clientOrderId,
    portfolioId,
    sym: order.sym,
    side: order.side,
    orderType: order.orderType,
    timeInForce: order.timeInForce,
    orderState: order.state,
    orderQty: order.qty,
    limitPrice: order.price,
    executedQty: order.filled,
    executedAmount: order.amount,
    executedAvgPrice: avg,
    fee: order.fee,
    feeCoin: order.feeCoin,
    reduceOnly: order.reduceOnly,
    positionSide: order.positionSide,
    ...(order.tp ? { tp: order.tp } : {}),
    ...(order.sl ? { sl: order.sl } : {}),
    ...(order.condition ? { condition: order.condition } : {}),
    ...(order.expiryDate ? { expiryDate: order.expiryDate } : {}),
    ...(order.action ? { action: order.action } : {}),
    ...(order.actionMsg ? { actionMsg: order.actionMsg } : {}),
    ...(order.amendType ? { amendType: order.amendType } : {}),
    ...(order.cancelType ? { cancelType: order.cancelType } : {}),
    ...(order.reason ? { reason: order.reason } : {}),
    createAt: order.createAt,
    updateAt: order.updateAt,
  };
}
