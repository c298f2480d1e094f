import type { Dec, InstrumentSpec, Order, PositionMode, PositionSide } from '../model/index.ts';

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
  /** Portfolio equity in the settlement currency. */
  equity(): Dec;
  /**
   * Gross exposure: sum of |position| * contractSize * mark over open positions, in the
   * settlement currency (`Portfolio.grossExposure()` computes it). Optional: without it a
   * configured maxGrossExposure limit denies, since it cannot be checked.
   */
  grossExposure?(): Dec;
}
