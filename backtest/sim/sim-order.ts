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
import { isAboveZero } from '../../core/model/index.ts';
import { minusAmount } from './decimal-sums.ts';

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
  /**
   * The quote amount of a quote-sized market order (quoteOrderQty, sent with qty 0): its qty is
   * zero until the sim sizes it at the prices it fills at (`quote-sizing.ts`); undefined otherwise.
   */
  readonly quoteQty: Dec | undefined;
  qty: Dec;
  /** Limit price; zero for market orders. */
  price: Dec;
  priceN: number;
  filled: Dec;
  /** Remaining quantity as a number (qty - filled). */
  remainingN: number;
  amount: Dec;
  /**
   * Executed average price (amount / filled), worked out once per fill: the Orders channel
   * reports it with every later change of the order too. Meaningless while nothing is filled.
   */
  avgPrice: Dec;
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
  /** A US equity order that may trade pre-market and after-hours too, not only in the regular session. */
  readonly extendedTrading: boolean;
  /**
   * An order of Keel's end-of-run close (a market close at the last known price, accounting for
   * what is open when the data ends, not trading on the venue): it trades whatever the hours, as a
   * session that never comes would leave the position open.
   */
  readonly ignoresTradingHours: boolean;
  readonly expiryDate?: string;
  /** Virtual time at which a DAY / GTD order expires (Infinity = never). */
  expireAt: number;
  /** Displayed quantity ahead of this order at its price (queue fill model). */
  queueAhead: number;
  /**
   * How much of the queue ahead went without a print yet (queue fill model): a display showed it
   * gone, or a locked book gave it the opposite size; the next prints at its price use this up
   * before they move the queue again (see `queue-position.ts`).
   */
  queueUnexplained: number;
  /**
   * True while a resting limit crosses the displayed opposite side (it took all the displayed size
   * and still crosses): its next fills are priced at the market, as a taker. On bars: the limit
   * was marketable at the last close when it arrived, and fills as a taker if the next open
   * reaches it (cleared after that open).
   */
  crossed: boolean;
  /** False while a conditional order is held by the venue, not yet working on the book. */
  working: boolean;
  /**
   * True while the order's margin check waits for the price it fills at: it was placed before its
   * sym had a price (`marginUnpriced`), or it is a market order on bars, which fills at the next
   * bar's open rather than at the last close it was checked against.
   */
  marginAtFill: boolean;
  /** Arrival order, breaking price ties on the book (time priority). */
  readonly seq: number;
  /** The algo order that placed this order, if any. */
  readonly algoOrderId?: string;
  /** True for orders the liquidation process placed. */
  readonly liquidation: boolean;
  readonly createAt: number;
  /**
   * When the venue received the order as it stands: its arrival, or the arrival of its latest
   * accepted modification. On bars it meets only bars that opened by then (see `bar-arrivals.ts`).
   */
  receivedAt: number;
  updateAt: number;
}

/**
 * What is left of an order to fill: qty - filled, the qty itself while nothing is filled (most
 * fills take a whole order, and decimal.js would copy the qty).
 * @param order - the sim's record
 * @returns the same value as `order.qty.minus(order.filled)`
 */
export function remainderOf(order: Pick<SimOrder, 'qty' | 'filled'>): Dec {
  return minusAmount(order.qty, order.filled);
}

/**
 * Whether anything is left of an order to fill (qty > filled), decided on the qty's sign while
 * nothing is filled: comparing with the filled zero would copy it first.
 * @param order - the sim's record
 * @returns the same as `order.qty.gt(order.filled)`
 */
export function hasRemainder(order: Pick<SimOrder, 'qty' | 'filled'>): boolean {
  return order.filled.isZero() ? isAboveZero(order.qty) : order.qty.gt(order.filled);
}

/**
 * The venue's view of an order, as the Orders channel reports it.
 * @param order - the sim's record
 * @param portfolioId - the simulated portfolio
 * @returns an immutable Order snapshot
 */
export function orderView(order: SimOrder, portfolioId: string): Order {
  return new OrderSnapshot(order, portfolioId);
}

type MutableOrder = { -readonly [K in keyof Order]?: Order[K] };

/**
 * Fills a view of an order in place. Optional fields are set only when present, in the same key
 * order as always (times last), without one spread per optional field: this runs for every order
 * update. Called with `new` rather than written as an object literal, as a literal's allocation
 * site lets V8 judge all its objects by the first ones: those views live on (a run holds its
 * first orders until they are written), and V8 then made every later view in the old
 * generation, where a market maker's requotes (dead a few events later) cost major collections.
 * The prototype is Object's, so a view is a plain object, as a literal is.
 */
const OrderSnapshot = function OrderSnapshot(this: MutableOrder, order: SimOrder, portfolioId: string): void {
  this.orderId = order.orderId;
  this.clientOrderId = order.clientOrderId;
  this.portfolioId = portfolioId;
  this.sym = order.sym;
  this.side = order.side;
  this.orderType = order.orderType;
  this.timeInForce = order.timeInForce;
  this.orderState = order.state;
  this.orderQty = order.qty;
  this.limitPrice = order.price;
  this.executedQty = order.filled;
  this.executedAmount = order.amount;
  this.executedAvgPrice = order.filled.isZero() ? order.filled : order.avgPrice;
  this.fee = order.fee;
  this.feeCoin = order.feeCoin;
  this.reduceOnly = order.reduceOnly;
  this.positionSide = order.positionSide;
  if (order.tp) this.tp = order.tp;
  if (order.sl) this.sl = order.sl;
  if (order.condition) this.condition = order.condition;
  if (order.expiryDate) this.expiryDate = order.expiryDate;
  if (order.action) this.action = order.action;
  if (order.actionMsg) this.actionMsg = order.actionMsg;
  if (order.amendType) this.amendType = order.amendType;
  if (order.cancelType) this.cancelType = order.cancelType;
  if (order.reason) this.reason = order.reason;
  if (order.quoteQty) this.quoteOrderQty = order.quoteQty;
  if (order.algoOrderId) this.algoOrderId = order.algoOrderId;
  this.createAt = order.createAt;
  this.updateAt = order.updateAt;
} as unknown as new (
  order: SimOrder,
  portfolioId: string,
) => Order;
OrderSnapshot.prototype = Object.prototype;
