import type {
  AlgoOrder,
  Dec,
  InstrumentSpec,
  Order,
  PlaceAlgoOrderIntent,
  PositionMode,
  PositionSide,
  ReplaceAlgoOrderIntent,
} from '../model/index.ts';

/**
 * An algo order that may still put an order on the book: one the venue holds open (not triggered
 * yet), or one sent and not answered yet, as sent with the replaces sent on it since merged in.
 */
export type RestingAlgoOrder = AlgoOrder | PlaceAlgoOrderIntent;

/** Which open orders to count: every field given must match. */
export interface OpenOrderFilter {
  /** Only this strategy's orders. */
  readonly strategyId?: string;
  /** Only orders on this sym. */
  readonly sym?: string;
}

/**
 * The read-only state the risk checks need. The kernel's state implements it; the checks never
 * see anything else, so each one can be tested on a hand-made view.
 */
export interface RiskView {
  /** Current time of the run (virtual in backtests), epoch ms. */
  now(): number;
  /** The instrument spec, or undefined when the sym is unknown. */
  instrument(sym: string): InstrumentSpec | undefined;
  /** Reference price for bands and notional: mid of the last quote, else last trade; undefined if none. */
  referencePrice(sym: string): number | undefined;
  /** Signed position quantity (long > 0) of a sym and side; zero when flat. */
  positionQty(sym: string, positionSide: PositionSide): Dec;
  /** The portfolio's position mode. */
  positionMode(): PositionMode;
  /** Open (non-final) orders, all strategies' or one strategy's. */
  openOrders(strategyId?: string): readonly Order[];
  /**
   * Hands each open order ({@link openOrders}) to `visit`, without making a list of them: the
   * exposure checks walk every open order of their scope per intent.
   */
  forEachOpenOrder(strategyId: string | undefined, visit: (order: Order) => void): void;
  /**
   * How many orders are open, all or only those matching the filter. The order checks run on
   * every intent, so a view should answer without walking every open order (the kernel keeps
   * indices by sym and by owner).
   */
  countOpenOrders(filter?: OpenOrderFilter): number;
  /** The open orders on one sym, all strategies' or one strategy's, without walking the others. */
  openOrdersOn(sym: string, strategyId?: string): Iterable<Order>;
  /**
   * The strategy that placed an order (its clientOrderId), or whose order the venue placed it for
   * (a tp/sl attachment, a fired algo order's order); undefined for orders placed outside the run.
   */
  ownerOf(clientOrderId: string): string | undefined;
  /** An order by its clientOrderId (the caller reference), final or not. */
  orderByRef(clientOrderId: string): Order | undefined;
  /**
   * The largest qty the modifies in flight on an open order ask for: until the venue answers,
   * the order may fill at that qty. Undefined when no modify of it is in flight (its orderQty stands).
   */
  inFlightModifyQty(order: Order): Dec | undefined;
  /**
   * The largest price the modifies in flight on an open order ask for, as
   * {@link inFlightModifyQty}: until the venue answers, the order may rest at that price.
   * Undefined when no modify of it asking a price is in flight (its limitPrice stands).
   */
  inFlightModifyPrice(order: Order): Dec | undefined;
  /**
   * The signed size (long > 0) of a position leg that position closes in flight will close: the
   * leg's size when the close was sent, zero when no close of it is in flight. Until the venue
   * makes its close order, the close claims that part of the position as a resting reduce-only
   * order on the other side would.
   */
  closingPositionQty(sym: string, positionSide: PositionSide, strategyId?: string): Dec;
  /**
   * Whether an order or algo order open on a leg, or sent and not answered yet (one returned
   * earlier in the same hook included), could open or grow it: one that does not only reduce a
   * position. Its fill may reach the venue's leg before a close sent now does, so a close of the
   * leg held flat may still find something to close (the kernel's `legMayGrow`).
   */
  legMayGrow(sym: string, positionSide: PositionSide): boolean;
  /** An algo order by its clientAlgoOrderId, open or finished; undefined when not known (yet). */
  algoOrderByRef(clientAlgoOrderId: string): AlgoOrder | undefined;
  /**
   * An algo order sent and not answered yet (not known to {@link algoOrderByRef}): as it was sent,
   * with the replaces sent on it since merged in. Undefined when none of that reference is in flight.
   */
  inFlightAlgoOrder(clientAlgoOrderId: string): PlaceAlgoOrderIntent | undefined;
  /**
   * The replaces sent on an algo order the venue acknowledged ({@link algoOrderByRef}) and not
   * answered yet, in sending order: until the venue answers, it may hold the algo order on its
   * old terms or on a replace's. Empty when none is in flight.
   */
  inFlightAlgoReplaces(clientAlgoOrderId: string): readonly ReplaceAlgoOrderIntent[];
  /**
   * How many algo orders may still put an order on the book, all strategies' or one strategy's:
   * those open on the venue (not triggered yet) and those sent and not answered yet, the
   * take-profit and stop-loss attached to one order counting as one (only one of them can fire).
   */
  countOpenAlgoOrders(strategyId?: string): number;
  /**
   * Hands each algo order that may still put an order on the book ({@link RestingAlgoOrder}: the
   * ones {@link countOpenAlgoOrders} counts, each leg of a tp/sl pair apart), all strategies' or
   * one strategy's, to `visit`: the position and exposure limits count those that can add to a
   * position as if they fired.
   */
  forEachOpenAlgoOrder(strategyId: string | undefined, visit: (algo: RestingAlgoOrder) => void): void;
  /**
   * How many trailing stops Keel holds (emulates) and has not fired yet, all strategies' or one
   * strategy's: each may put an order on the book when it fires.
   */
  countHeldTrailingStops(strategyId?: string): number;
  /** Portfolio equity in the settlement currency. */
  equity(): Dec;
  /**
   * Gross exposure: sum of |position| * contractSize * mark over open positions, in the
   * settlement currency (`Portfolio.grossExposure()` computes it). Optional: without it a
   * configured maxGrossExposure limit denies, since it cannot be checked.
   */
  grossExposure?(): Dec;
}
