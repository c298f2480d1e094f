import { z } from 'zod';
import { ORDER_TYPES, TRIGGER_PRICE_TYPES } from '../../model/index.ts';
import { decimalText, epochMs, type PageRequest, positionSideText, sideText } from './common.ts';

/** Trigger price type of a tp/sl attachment (per public venue docs). */
export const triggerTypeText = z.enum(TRIGGER_PRICE_TYPES);

/**
 * The times in force a crypto place-order body carries (GTX = post-only; per public venue docs).
 * Keel's FAK goes out as IOC; DAY and GTD are refused before sending.
 */
export const WIRE_TIMES_IN_FORCE = ['GTC', 'IOC', 'FOK', 'GTX'] as const;

/** A time in force as a crypto place-order body carries it. */
export type WireTimeInForce = (typeof WIRE_TIMES_IN_FORCE)[number];

/** The take-profit and stop-loss attachment fields, alike in an order and a place-order body. */
const tpSlFields = {
  tpTriggerPrice: decimalText.optional(),
  tpTriggerType: triggerTypeText.optional(),
  tpPrice: decimalText.optional(),
  slTriggerPrice: decimalText.optional(),
  slTriggerType: triggerTypeText.optional(),
  slPrice: decimalText.optional(),
};

/**
 * An order as the REST order endpoints and the Orders channel report it. Field names per public
 * venue docs; the spec adds positionSide, tp and sl fields, action, actionMsg, amendType and
 * cancelType. Identity, side, type, state and quantity are required; the rest are optional.
 */
export const orderWireSchema = z.looseObject({
  orderId: z.string(),
  clientOrderId: z.string().optional(),
  portfolioId: z.string().optional(),
  sym: z.string(),
  side: sideText,
  /**
   * LIMIT / MARKET per public venue docs; other text (a liquidation or ADL order) is kept rather
   * than dropping the order's update: the mapping decides what it means.
   */
  orderType: z.string(),
  /**
   * NEW, OPEN, PARTIALLY_FILLED, FILLED, CANCELLED, REJECTED or FAIL per public venue docs (the
   * spec: "Full set of orderStatus values: not shown"); other text is kept rather than failing the
   * whole reply (one open order in an unlisted state would fail the snapshot): the mapping decides
   * what it means, from where the order was read.
   */
  orderState: z.string(),
  orderQty: decimalText,
  limitPrice: decimalText.optional(),
  quoteOrderQty: decimalText.optional(),
  timeInForce: z.string().optional(),
  exchangeType: z.string().optional(),
  businessType: z.string().optional(),
  executedQty: decimalText.optional(),
  executedAmount: decimalText.optional(),
  executedAvgPrice: decimalText.optional(),
  lastExecutedQty: decimalText.optional(),
  lastExecutedPrice: decimalText.optional(),
  fee: decimalText.optional(),
  feeCoin: z.string().optional(),
  reduceOnly: z.boolean().optional(),
  leverage: decimalText.optional(),
  positionSide: positionSideText.optional(),
  algoOrderId: z.string().optional(),
  ...tpSlFields,
  // A trigger type the docs do not list must not drop the whole order: the mapping falls back.
  tpTriggerType: z.string().optional(),
  slTriggerType: z.string().optional(),
  action: z.string().optional(),
  actionMsg: z.string().optional(),
  amendType: z.string().optional(),
  cancelType: z.string().optional(),
  reason: z.string().optional(),
  createAt: epochMs,
  updateAt: epochMs.optional(),
});
/** A decoded order. */
export type OrderWire = z.output<typeof orderWireSchema>;

/**
 * Body of `POST /api/v1/trading/order` and args of the WebSocket `place_order` (per public venue
 * docs). The spec adds positionSide and the optional tp and sl fields.
 */
export interface PlaceOrderBody {
  readonly sym: string;
  readonly side: 'BUY' | 'SELL';
  readonly orderType: 'LIMIT' | 'MARKET';
  readonly orderQty: string;
  readonly limitPrice?: string;
  readonly clientOrderId?: string;
  readonly timeInForce?: WireTimeInForce;
  readonly quoteOrderQty?: string;
  readonly reduceOnly?: boolean;
  readonly positionSide?: 'NONE' | 'LONG' | 'SHORT';
  readonly tpTriggerPrice?: string;
  readonly tpTriggerType?: 'MarkPrice' | 'LastPrice';
  readonly tpPrice?: string;
  readonly slTriggerPrice?: string;
  readonly slTriggerType?: 'MarkPrice' | 'LastPrice';
  readonly slPrice?: string;
}

/** Schema of {@link PlaceOrderBody}, for the server side (paper venue). */
export const placeOrderBodySchema = z.looseObject({
  sym: z.string(),
  side: sideText,
  orderType: z.enum(ORDER_TYPES),
  orderQty: decimalText,
  limitPrice: decimalText.optional(),
  clientOrderId: z.string().max(40).optional(),
  timeInForce: z.enum(WIRE_TIMES_IN_FORCE).optional(),
  quoteOrderQty: decimalText.optional(),
  reduceOnly: z.boolean().optional(),
  positionSide: positionSideText.optional(),
  ...tpSlFields,
});

/**
 * Reply data of place, replace and cancel order (REST and the lower-case WebSocket actions):
 * orderId and clientOrderId (per public venue docs), plus the synchronous-verification
 * information the spec mentions and action / actionMsg of cancel.
 */
export const orderAckWireSchema = z.looseObject({
  orderId: z.string(),
  clientOrderId: z.string().optional(),
  orderState: z.string().optional(),
  action: z.string().optional(),
  actionMsg: z.string().optional(),
});
/** A decoded order acknowledgement. */
export type OrderAckWire = z.output<typeof orderAckWireSchema>;

/** Which order a query, replace or cancel refers to: orderId or clientOrderId (one is needed). */
export interface OrderRef {
  readonly orderId?: string;
  readonly clientOrderId?: string;
}

/**
 * Body of order modification (`replace_order`; REST `PUT /api/v1/trading/order`). Shape not shown
 * by the spec: Keel's choice, the REST order's field names.
 */
export interface ReplaceOrderBody extends OrderRef {
  readonly sym: string;
  readonly orderQty?: string;
  readonly limitPrice?: string;
}

/** Body of cancel one order, `DELETE /api/v1/trading/order` (per public venue docs). */
export interface CancelOrderBody extends OrderRef {
  readonly sym?: string;
}

/**
 * Body of batch cancellation (`cancel_orders`; REST `DELETE /api/v1/trading/cancelAll`).
 * Shape not shown by the spec: Keel's choice, a sym filter and / or a list of clientOrderIds.
 */
export interface CancelOrdersBody {
  readonly sym?: string;
  readonly clientOrderIds?: readonly string[];
}

/** Query of open orders. */
export interface OpenOrdersQuery {
  readonly sym?: string;
}

/** Query of order history and archived order history (the spec adds filterExecuted). */
export interface OrderHistoryQuery extends PageRequest {
  readonly sym?: string;
  readonly filterExecuted?: boolean;
}
