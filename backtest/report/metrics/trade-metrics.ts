import type { RecordLog } from '../log/record-log.ts';
import type { RoundTripTrade } from '../trades/round-trip-trade.ts';
import { finiteOrNull } from './sample-statistics.ts';

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
 * Computes the trade statistics of closed round trips in two passes over them (the second for
 * the standard deviation of SQN), holding only running sums, so a file-backed log of any length
 * is read twice instead of loaded. Sums run in trade order, as a one-pass sum over an array would.
 * @param trades - closed round-trip trades (re-iterable: an array or a record log)
 * @returns the statistics; see {@link TradeStats} for each formula
 */
export function tradeStats(trades: RecordLog<RoundTripTrade>): TradeStats {
  let n = 0;
  let returnSum = 0;
  let logSum = 0;
  let totalLoss = false;
  let best = Number.NEGATIVE_INFINITY;
  let worst = Number.POSITIVE_INFINITY;
  let longest = Number.NEGATIVE_INFINITY;
  let durationSum = 0;
  let pnlSum = 0;
  let winCount = 0;
  let grossWin = 0;
  let lossCount = 0;
  let lossSum = 0;
  for (const t of trades) {
    const r = t.returnFraction;
    const pnl = t.pnl.toNumber();
    n++;
    returnSum += r;
    if (r <= -1) totalLoss = true;
    else logSum += Math.log1p(r);
    best = Math.max(best, r);
    worst = Math.min(worst, r);
    longest = Math.max(longest, t.durationMs);
    durationSum += t.durationMs;
    pnlSum += pnl;
    if (pnl > 0) {
      winCount++;
      grossWin += pnl;
    } else if (pnl < 0) {
      lossCount++;
      lossSum += pnl;
    }
  }
  const pnlMean = n === 0 ? null : pnlSum / n;
  let pnlStd: number | null = null;
  if (pnlMean !== null && n >= 2) {
    let squares = 0;
    for (const t of trades) {
      const d = t.pnl.toNumber() - pnlMean;
      squares += d * d;
    }
    pnlStd = Math.sqrt(squares / (n - 1));
  }
  const winRate = n === 0 ? 0 : winCount / n;
  const grossLoss = -lossSum;
  const avgWin = winCount === 0 ? null : grossWin / winCount;
  const avgLoss = lossCount === 0 ? null : grossLoss / lossCount;
  return {
    tradeCount: n,
    winRate,
    bestTrade: n === 0 ? null : best,
    worstTrade: n === 0 ? null : worst,
    avgTrade: n === 0 || totalLoss ? null : Math.expm1(logSum / n),
    maxTradeDurationMs: n === 0 ? null : longest,
    avgTradeDurationMs: n === 0 ? null : durationSum / n,
    profitFactor: grossLoss === 0 ? null : finiteOrNull(grossWin / grossLoss),
    expectancy: n === 0 ? null : returnSum / n,
    sqn:
      pnlMean === null || pnlStd === null || pnlStd === 0
        ? null
        : finiteOrNull((Math.sqrt(n) * pnlMean) / pnlStd),
    kelly:
      avgWin === null || avgLoss === null ? null : finiteOrNull(winRate - (1 - winRate) / (avgWin / avgLoss)),
  };
}
