import type { Dec } from '../../core/model/index.ts';

/** One point of the equity curve: account equity (cash + positions marked to market) at `ts`. */
export interface EquitySample {
  /** Epoch milliseconds (virtual time of the backtest). */
  readonly ts: number;
  /** Equity in the settle asset. */
  readonly equity: Dec;
}

/** One point of a market price series (the buy & hold benchmark, the price chart). */
export interface PricePoint {
  /** Epoch milliseconds. */
  readonly ts: number;
  readonly price: number;
}

/**
 * One point of a sym's sampled price line: its price at a bucket's close and, on bar data, the
 * lowest low and highest high of the sym's bars in that bucket (absent for quotes and trades,
 * whose every price the line's extremes already see, and in result files written before Keel
 * recorded bar ranges).
 */
export interface SampledPricePoint extends PricePoint {
  readonly low?: number;
  readonly high?: number;
}

/** A time interval [from, to] in epoch milliseconds, e.g. while a position was open. */
export interface TimeInterval {
  readonly from: number;
  readonly to: number;
}
