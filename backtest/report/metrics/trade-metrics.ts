import type { RoundTripTrade } from '../trades/round-trip-trade.ts';
import { finiteOrNull, geometricMeanReturn, mean, sampleStdDev } from './sample-statistics.ts';

/**
 * Statistics of the closed round-trip trades (backtesting.py's names). Where a figure needs
 * trades (or wins and losses) that are not there it is null, never NaN.
 */
export interface TradeStats {
  /** Number of closed round-trip trades. */
  readonly tradeCount: number;
  /** Trades with pnl > 0 divided by all trades, in [0, 1]; 0 without trades (QuantStats). */
  readonly winRate: number;
  /** Highest trade return fraction. */
  readonly bestTrade: number | null;
  /** Lowest trade return fraction. */
  readonly worstTrade: number | null;
  /** Geometric mean trade return: (Π(1 + r))^(1/n) - 1 (backtesting.py "Avg. Trade"). */
  readonly avgTrade: number | null;
  /** Longest exitTs - entryTs, milliseconds. */
  readonly maxTradeDurationMs: number | null;
  /** Mean exitTs - entryTs, milliseconds. */
  readonly avgTradeDurationMs: number | null;
  /** Σ pnl of winners / |Σ pnl of losers|, on money PnL net of fees; null without losers. */
  readonly profitFactor: number | null;
  /** Arithmetic mean trade return: Σ r / n (backtesting.py "Expectancy [%]"). */
  readonly expectancy: number | null;
  /** System Quality Number: sqrt(n) x mean(pnl) / std(pnl, ddof 1) (Van Tharp, backtesting.py). */
  readonly sqn: number | null;
  /**
   * Kelly criterion: W - (1 - W) / (avgWin / avgLoss), with W the win rate, avgWin the mean pnl
   * of winners and avgLoss the mean |pnl| of losers (backtesting.py); null without both.
   */
  readonly kelly: number | null;
}

/**
 * Computes the trade statistics of closed round trips.
 * @param trades - closed round-trip trades
 * @returns the statistics; see {@link TradeStats} for each formula
 */
export function tradeStats(trades: readonly RoundTripTrade[]): TradeStats {
  const n = trades.length;
  const returns = trades.map((t) => t.returnFraction);
  const pnls = trades.map((t) => t.pnl.toNumber());
  const durations = trades.map((t) => t.durationMs);
  const wins = pnls.filter((p) => p > 0);
  const losses = pnls.filter((p) => p < 0);
  const winRate = n === 0 ? 0 : wins.length / n;
  const grossWin = wins.reduce((a, b) => a + b, 0);
  const grossLoss = -losses.reduce((a, b) => a + b, 0);
  const avgWin = mean(wins);
  const avgLoss = mean(losses.map((l) => -l));
  const pnlMean = mean(pnls);
  const pnlStd = sampleStdDev(pnls);
  return {
    tradeCount: n,
    winRate,
    bestTrade: n === 0 ? null : returns.reduce((a, b) => Math.max(a, b)),
    worstTrade: n === 0 ? null : returns.reduce((a, b) => Math.min(a, b)),
    avgTrade: geometricMeanReturn(returns),
    maxTradeDurationMs: n === 0 ? null : durations.reduce((a, b) => Math.max(a, b)),
    avgTradeDurationMs: mean(durations),
    profitFactor: grossLoss === 0 ? null : finiteOrNull(grossWin / grossLoss),
    expectancy: mean(returns),
    sqn:
      pnlMean === null || pnlStd === null || pnlStd === 0
        ? null
        : finiteOrNull((Math.sqrt(n) * pnlMean) / pnlStd),
    kelly:
      avgWin === null || avgLoss === null ? null : finiteOrNull(winRate - (1 - winRate) / (avgWin / avgLoss)),
  };
}
