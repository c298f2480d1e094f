import type { Dec, PositionSide } from '../../../core/model/index.ts';

/** Direction of a round-trip trade: bought first (LONG) or sold first (SHORT). */
export type TradeDirection = 'LONG' | 'SHORT';

/**
 * A closed round-trip trade: a quantity opened by one entry and closed by a later exit (FIFO),
 * where an entry or exit is one order, or one order sliced into several (one batch, see
 * `RoundTripBook`). Consecutive partial fills of one entry count as one fill, at their
 * volume-weighted price; an exit that closes several lots, or part of one, yields one trade per
 * lot portion.
 */
export interface RoundTripTrade {
  readonly sym: string;
  readonly positionSide: PositionSide;
  readonly direction: TradeDirection;
  /** Quantity closed, in contracts (or units), always positive. */
  readonly qty: Dec;
  /** The entry order's first fill in this trade. */
  readonly entryTs: number;
  /** The exit order's last fill in this trade. */
  readonly exitTs: number;
  /** Volume-weighted over the entry order's fills in this trade. */
  readonly entryPrice: Dec;
  /** Volume-weighted over the exit order's fills in this trade. */
  readonly exitPrice: Dec;
  /** The entry's first order (of its batch). */
  readonly entryOrderId: string;
  /** The exit's first order (of its batch). */
  readonly exitOrderId: string;
  /** The strategy owning the entry order, when known. */
  readonly entryStrategyId?: string;
  /** The strategy owning the exit order, when known (`keel` for a backtest's end-of-run close). */
  readonly exitStrategyId?: string;
  /** (exit - entry) x qty x contract size, sign flipped for SHORT; before fees. */
  readonly grossPnl: Dec;
  /** Fees minus rebates of the entry and exit fills, pro rata to the quantity of this trade. */
  readonly fees: Dec;
  /** grossPnl - fees. */
  readonly pnl: Dec;
  /** pnl / entry notional (entryPrice x qty x contract size): 0.05 = +5 %. */
  readonly returnFraction: number;
  /** exitTs - entryTs, milliseconds. */
  readonly durationMs: number;
}

/** A quantity still open at the end of the fills (not a round trip yet). */
export interface OpenTrade {
  readonly sym: string;
  readonly positionSide: PositionSide;
  readonly direction: TradeDirection;
  readonly qty: Dec;
  readonly entryTs: number;
  readonly entryPrice: Dec;
  readonly entryOrderId: string;
  /** The strategy owning the entry order, when known. */
  readonly entryStrategyId?: string;
  /** Entry fees (minus rebates) pro rata to the open quantity. */
  readonly entryFees: Dec;
}
