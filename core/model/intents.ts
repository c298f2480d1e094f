import type { AlgoConditionType, AlgoOrderType } from './algo-order.ts';
import type { Dec } from './decimal.ts';
import type { OrderCondition, OrderSide, OrderType, TimeInForce, TpSl, TriggerPriceType } from './order.ts';
import type { PositionMode, PositionSide } from './position.ts';

/**
 * Intents: what a strategy asks for. Plain readonly data; each carries `ref`, the caller's
 * reference, unique per strategy run. For orders it becomes the venue's `clientOrderId`
 * (<= 40 characters) and the idempotency key of the request.
 */
interface IntentBase {
  readonly ref: string;
}

/** Place an order (REST order or the spec's PLACE_ORDER for US equities). */
export interface PlaceOrderIntent extends IntentBase {
  readonly kind: 'placeOrder';
  readonly sym: string;
  readonly side: OrderSide;
  readonly orderType: OrderType;
  readonly qty: Dec;
  /** Limit price; omitted (sent as "0") for market orders. */
  readonly price?: Dec;
  readonly timeInForce: TimeInForce;
  /** `YYYY-MM-DD`, required with timeInForce GTD. */
  readonly expiryDate?: string;
  readonly reduceOnly: boolean;
  readonly positionSide: PositionSide;
  readonly tp?: TpSl;
  readonly sl?: TpSl;
  readonly condition?: OrderCondition;
  readonly quoteOrderQty?: Dec;
  readonly extendedTrading?: boolean;
  /**
   * Present on a trailing stop: the venue has no trailing order type, so the kernel holds the
   * order (Keel emulates it) and sends it, as the MARKET order this intent otherwise describes,
   * only when the market crosses the trailing level. Never sent to a venue with this field set.
   */
  readonly trailingStop?: TrailingStopSpec;
}

/** The ways a trailing stop's offset may be measured. */
export const TRAILING_OFFSET_TYPES = ['PRICE', 'TICKS', 'BPS'] as const;

/** How a trailing stop's offset from the best price seen is measured. */
export type TrailingOffsetType = (typeof TRAILING_OFFSET_TYPES)[number];

/** The prices an emulated order may trail and trigger on. */
export const EMULATION_TRIGGERS = ['last', 'mark', 'bidAsk'] as const;

/**
 * Which market price an emulated order trails and triggers on: the last public trade, the mark
 * price (perpetuals), or the touch (a SELL stop on the bid, a BUY stop on the ask).
 */
export type EmulationTrigger = (typeof EMULATION_TRIGGERS)[number];

/**
 * A Keel-emulated trailing stop (a trailing-stop-market order): a SELL stop trails the highest
 * price seen since activation by `offset` and fires when the price falls to that level; a BUY
 * stop trails the lowest price and fires when the price rises to it.
 */
export interface TrailingStopSpec {
  readonly offsetType: TrailingOffsetType;
  /** The distance from the best price seen: a price, a number of ticks, or basis points of it; > 0. */
  readonly offset: Dec;
  /**
   * The stop starts trailing once the price reaches this level (a SELL stop: at or above it; a
   * BUY stop: at or below); absent = at once, from the first price seen.
   */
  readonly activationPrice?: Dec;
  readonly triggerOn: EmulationTrigger;
}

/** Modify an open order's quantity and / or price. */
export interface ModifyOrderIntent extends IntentBase {
  readonly kind: 'modifyOrder';
  /** clientOrderId of the order to modify. */
  readonly target: string;
  readonly sym: string;
  readonly qty?: Dec;
  readonly price?: Dec;
}

/** Cancel one order. */
export interface CancelOrderIntent extends IntentBase {
  readonly kind: 'cancelOrder';
  readonly target: string;
  readonly sym: string;
}

/** Cancel many orders: the listed ones, or all of the strategy's on `sym` (or everywhere). */
export interface CancelOrdersIntent extends IntentBase {
  readonly kind: 'cancelOrders';
  readonly targets?: readonly string[];
  readonly sym?: string;
}

/** Close one position with a market close (reduce-only orders on the sym are cancelled first). */
export interface ClosePositionIntent extends IntentBase {
  readonly kind: 'closePosition';
  readonly sym: string;
  readonly positionSide: PositionSide;
}

/** Close several positions (symList up to 20). */
export interface ClosePositionsIntent extends IntentBase {
  readonly kind: 'closePositions';
  readonly symList: readonly string[];
}

/** Place an algo (conditional) order. */
export interface PlaceAlgoOrderIntent extends IntentBase {
  readonly kind: 'placeAlgoOrder';
  readonly sym: string;
  readonly side: OrderSide;
  readonly algoOrderType: AlgoOrderType;
  readonly conditionType: AlgoConditionType;
  readonly triggerType: TriggerPriceType;
  readonly triggerPrice: Dec;
  /** Zero = market order when triggered. */
  readonly price: Dec;
  readonly qty: Dec;
  readonly reduceOnly: boolean;
  readonly positionSide: PositionSide;
}

/** Replace an open algo order's trigger, price or quantity. */
export interface ReplaceAlgoOrderIntent extends IntentBase {
  readonly kind: 'replaceAlgoOrder';
  /** clientAlgoOrderId of the algo order. */
  readonly target: string;
  readonly sym: string;
  readonly triggerPrice?: Dec;
  readonly price?: Dec;
  readonly qty?: Dec;
}

/** Cancel one algo order. */
export interface CancelAlgoOrderIntent extends IntentBase {
  readonly kind: 'cancelAlgoOrder';
  readonly target: string;
  readonly sym: string;
}

/** Cancel all open algo orders, optionally filtered. */
export interface CancelAllAlgoOrdersIntent extends IntentBase {
  readonly kind: 'cancelAllAlgoOrders';
  readonly sym?: string;
  readonly algoOrderType?: AlgoOrderType;
}

/** Borrow an asset into the portfolio's exchange account. */
export interface BorrowIntent extends IntentBase {
  readonly kind: 'borrow';
  readonly exchange: string;
  readonly coin: string;
  readonly amount: Dec;
}

/** Repay loan principal. */
export interface RepayIntent extends IntentBase {
  readonly kind: 'repay';
  readonly exchange: string;
  readonly coin: string;
  readonly amount: Dec;
}

/** Switch the portfolio between NET and BOTH position modes. */
export interface SetPositionModeIntent extends IntentBase {
  readonly kind: 'setPositionMode';
  readonly positionMode: PositionMode;
}

/** Any intent a strategy can emit. */
export type Intent =
  | PlaceOrderIntent
  | ModifyOrderIntent
  | CancelOrderIntent
  | CancelOrdersIntent
  | ClosePositionIntent
  | ClosePositionsIntent
  | PlaceAlgoOrderIntent
  | ReplaceAlgoOrderIntent
  | CancelAlgoOrderIntent
  | CancelAllAlgoOrdersIntent
  | BorrowIntent
  | RepayIntent
  | SetPositionModeIntent;

/** The discriminant of an intent. */
export type IntentKind = Intent['kind'];

/** Intents that only remove risk and therefore always pass the risk gate. */
export const CANCEL_INTENT_KINDS: ReadonlySet<IntentKind> = new Set([
  'cancelOrder',
  'cancelOrders',
  'cancelAlgoOrder',
  'cancelAllAlgoOrders',
]);

/** An intent tagged with the strategy that emitted it. */
export interface StrategyIntent {
  readonly strategyId: string;
  readonly intent: Intent;
  /**
   * The kernel's number for the hook call (the job of its loop: an event, a timer, a piece of
   * work) that produced the intent, stamped on each command the kernel sends: the intents of one
   * call share it in every mode, however far apart they reach the venue. Absent on intents not
   * yet through the kernel's pipeline, and on Keel's own cancels.
   */
  readonly hookCall?: number;
  /**
   * Set by the kernel on the MARKET order an emulated trailing stop sends when it fires: when the
   * kernel accepted the stop, epoch ms. A HALTED gate lets such an order through its trading state
   * when it is reduce-only and the stop was accepted before the halt, as the venue fires a stop it
   * holds. Never set on a strategy's own intents.
   */
  readonly heldSince?: number;
}
