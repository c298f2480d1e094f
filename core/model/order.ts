import type { Dec } from './decimal.ts';
import type { PositionSide } from './position.ts';

/** The order sides (per public venue docs). */
export const ORDER_SIDES = ['BUY', 'SELL'] as const;

/** Order side. */
export type OrderSide = (typeof ORDER_SIDES)[number];

/** The order types (per public venue docs). */
export const ORDER_TYPES = ['LIMIT', 'MARKET'] as const;

/** Order type: limit or market. */
export type OrderType = (typeof ORDER_TYPES)[number];

/**
 * Time in force. GTC/IOC/FOK/GTX (GTX = post-only) are the venue's; DAY, GTD and FAK are the
 * PLACE_ORDER message's `orderValidity` values (FAK is the equities name of IOC).
 */
export type TimeInForce = (typeof TIMES_IN_FORCE)[number];

/** Every time in force an order may name; {@link VENUE_TIMES_IN_FORCE} says which an instrument takes. */
export const TIMES_IN_FORCE = ['GTC', 'IOC', 'FOK', 'GTX', 'DAY', 'GTD', 'FAK'] as const;

/**
 * The times in force the venue carries for each kind of instrument: a crypto order's `timeInForce`
 * is GTC, IOC, FOK or GTX (per public venue docs; Keel sends FAK as IOC), an equity order's
 * PLACE_ORDER `orderValidity` is Day, FAK, FOK, GTD or GTC (spec; Keel sends IOC as FAK). So a
 * crypto order cannot be DAY or GTD, nor an equity order post-only.
 */
export const VENUE_TIMES_IN_FORCE: Readonly<Record<'crypto' | 'equity', ReadonlySet<TimeInForce>>> = {
  crypto: new Set(['GTC', 'IOC', 'FOK', 'GTX', 'FAK']),
  equity: new Set(['DAY', 'FAK', 'IOC', 'FOK', 'GTD', 'GTC']),
};

/** The prices that may trigger a take-profit, stop-loss or algo order (per public venue docs). */
export const TRIGGER_PRICE_TYPES = ['MarkPrice', 'LastPrice'] as const;

/** Which price triggers a take-profit, stop-loss or algo order. */
export type TriggerPriceType = (typeof TRIGGER_PRICE_TYPES)[number];

/** The conditional order types of the spec's PLACE_ORDER (`conditionCode`). */
export const CONDITION_CODES = ['UT', 'DT', 'SL', 'OCO', 'TIME', 'HOLD'] as const;

/** Conditional order type of the spec's PLACE_ORDER (`conditionCode`). */
export type ConditionCode = (typeof CONDITION_CODES)[number];

/** Venue order states (per public venue docs). */
export const VENUE_ORDER_STATES = [
  'NEW',
  'OPEN',
  'PARTIALLY_FILLED',
  'FILLED',
  'CANCELLED',
  'REJECTED',
  'FAIL',
] as const;
/** Keel's in-flight states: sent, waiting for the venue to confirm. */
export const IN_FLIGHT_ORDER_STATES = ['PENDING_NEW', 'PENDING_CANCEL', 'PENDING_REPLACE'] as const;

/** An order state reported by the venue. */
export type VenueOrderState = (typeof VENUE_ORDER_STATES)[number];
/** A state Keel holds while a request is in flight. */
export type InFlightOrderState = (typeof IN_FLIGHT_ORDER_STATES)[number];
/** Every state an order can be in. */
export type OrderState = VenueOrderState | InFlightOrderState;

/** States an order never leaves (except one Keel synthesized, which the venue's own update replaces: `Order.synthesized`). */
export const FINAL_ORDER_STATES: ReadonlySet<OrderState> = new Set([
  'FILLED',
  'CANCELLED',
  'REJECTED',
  'FAIL',
]);

/**
 * Whether an order state is final. Compares the four words rather than asking
 * {@link FINAL_ORDER_STATES}: it runs several times per order update, and the set's look-up was
 * about 1 % of a quoting backtest.
 * @param state - the state
 * @returns true for FILLED, CANCELLED, REJECTED and FAIL
 */
export function isFinalOrderState(state: OrderState): boolean {
  return state === 'FILLED' || state === 'CANCELLED' || state === 'REJECTED' || state === 'FAIL';
}

/** The `action` field of an order update (per public venue docs). */
export type OrderAction =
  | 'PLACE'
  | 'CANCEL_PENDING'
  | 'CANCEL_COMPLETED'
  | 'AMEND_COMPLETED'
  | 'FILL'
  | 'EXPIRE'
  | 'REJECT';

/** Take-profit or stop-loss attachment; `price` zero means a market order when triggered. */
export interface TpSl {
  readonly triggerPrice: Dec;
  readonly triggerType: TriggerPriceType;
  readonly price: Dec;
}

/** Conditional order fields of the PLACE_ORDER message. */
export interface OrderCondition {
  readonly code: ConditionCode;
  readonly triggerPrice?: Dec;
  readonly stopPrice?: Dec;
  /** `yyyy-MM-dd HH:mm:ss`, as the spec writes it, New York time (see `parseTimeToSend`). */
  readonly timeToSend?: string;
}

/** An order in the venue's fields; which strategy owns it is the kernel's business (by clientOrderId). */
export interface Order {
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly portfolioId: string;
  readonly sym: string;
  readonly side: OrderSide;
  readonly orderType: OrderType;
  readonly timeInForce: TimeInForce;
  readonly orderState: OrderState;
  readonly orderQty: Dec;
  readonly limitPrice: Dec;
  /**
   * The quote amount of a market order sized by it (sent with orderQty 0); its orderQty is what
   * the amount pays for once the venue sized it (the simulated venue: when it fills).
   */
  readonly quoteOrderQty?: Dec;
  readonly executedQty: Dec;
  readonly executedAmount: Dec;
  readonly executedAvgPrice: Dec;
  readonly fee: Dec;
  readonly feeCoin: string;
  readonly reduceOnly: boolean;
  readonly positionSide: PositionSide;
  readonly tp?: TpSl;
  readonly sl?: TpSl;
  readonly condition?: OrderCondition;
  readonly expiryDate?: string;
  readonly action?: OrderAction;
  readonly actionMsg?: string;
  readonly amendType?: string;
  readonly cancelType?: string;
  readonly reason?: string;
  /**
   * True when Keel made this state up instead of hearing it from the venue (e.g. REJECTED for an
   * order the venue never acknowledged nor listed), or built this update from its own intent (an
   * order entry acknowledgement, which carries neither the order nor the venue's time: it is
   * stamped with Keel's receipt time): a later update from the venue supersedes it. Absent on the
   * venue's own updates.
   */
  readonly synthesized?: boolean;
  /** The algo order whose trigger placed this order (per public venue docs). */
  readonly algoOrderId?: string;
  /**
   * Set by Keel, never by a venue: the reference of the strategy's position close
   * (`ctx.order.closePosition` / `closePositions`, the intent's `ref`) that made this order. The
   * close request carries no reference, so a venue names the close's order itself (Keel's
   * simulated venue, in backtests and paper, `SIM-C-<n>`, a live venue as it likes):
   * `clientOrderId` does not tell a close's order, this field does. Absent on other orders, and on a close order two
   * strategies' closes of one leg may have made (it is neither's).
   */
  readonly closeRef?: string;
  /**
   * Set by Keel, never by a venue: the reference (`clientAlgoOrderId`) of the algo order whose
   * trigger placed this order, which the venue names only by its `algoOrderId`. Absent on other
   * orders, and on one whose algo order Keel never heard of (placed outside Keel, or forgotten).
   */
  readonly algoRef?: string;
  readonly createAt: number;
  readonly updateAt: number;
}

/**
 * Whether an order can only close its hedge-mode leg (BOTH mode): a SELL on the LONG leg or a BUY
 * on the SHORT leg never opens the other way, so it reduces whatever its reduce-only flag says.
 * @param order - its side and position side
 * @returns true for a closing order of a LONG or SHORT leg
 */
export function closesHedgeLeg(order: {
  readonly side: OrderSide;
  readonly positionSide: PositionSide;
}): boolean {
  return (
    (order.positionSide === 'LONG' && order.side === 'SELL') ||
    (order.positionSide === 'SHORT' && order.side === 'BUY')
  );
}

/**
 * Whether an order can only take a position down: reduce-only, or closing a hedge leg
 * ({@link closesHedgeLeg}), as the venue treats it.
 * @param order - its reduce-only flag, side and position side
 * @returns true when it never opens or grows a position
 */
export function onlyReducesPosition(order: {
  readonly reduceOnly: boolean;
  readonly side: OrderSide;
  readonly positionSide: PositionSide;
}): boolean {
  return order.reduceOnly || closesHedgeLeg(order);
}
