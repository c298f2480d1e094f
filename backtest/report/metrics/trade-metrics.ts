import { asNumber } from '../../../core/model/index.ts';
import type { RecordCodec, RecordLog } from '../log/record-log.ts';
import type { SpillDirectory } from '../log/spill-directory.ts';
import { SpillLog } from '../log/spill-log.ts';
import type { RoundTripTrade } from '../trades/round-trip-trade.ts';
import { finiteOrNull, isNegligibleSpread } from './sample-statistics.ts';

/**
 * Statistics of the closed round-trip trades (backtesting.py's names). Where a figure needs
 * trades (or wins and losses) that are not there it is null, never NaN.
 */
export interface TradeStats {
  /**
   * Number of closed round-trip trades: what one entry opened and one exit closed, FIFO per sym
   * and position side, one order sliced into several counting as one (see `RoundTripBook`).
   */
  readonly tradeCount: number;
  /**
   * Trades with pnl > 0 divided by all trades, in [0, 1]; null without trades (0 / 0). As in
   * backtesting.py a break-even trade counts in the denominator; QuantStats' `win_rate` (of period
   * returns) leaves zeros out.
   */
  readonly winRate: number | null;
  /** Highest trade return fraction. */
  readonly bestTrade: number | null;
  /** Lowest trade return fraction. */
  readonly worstTrade: number | null;
  /**
   * Geometric mean trade return: (Π(1 + r))^(1/n) - 1 (backtesting.py "Avg. Trade"); null when
   * a trade lost its whole entry notional or more (r <= -1, as a short can), which has no
   * geometric mean: backtesting.py shows 0 there.
   */
  readonly avgTrade: number | null;
  /** Longest exitTs - entryTs, milliseconds. */
  readonly maxTradeDurationMs: number | null;
  /** Mean exitTs - entryTs, milliseconds. */
  readonly avgTradeDurationMs: number | null;
  /**
   * Σ pnl of winners / |Σ pnl of losers|, on money PnL net of fees; null without losers (as
   * backtesting.py's NaN; QuantStats gives infinity), 0 with losers and no winners.
   * backtesting.py divides the sums of trade returns instead, so the two differ when trades
   * differ in size.
   */
  readonly profitFactor: number | null;
  /** Arithmetic mean trade return: Σ r / n (backtesting.py "Expectancy [%]"). */
  readonly expectancy: number | null;
  /**
   * System Quality Number: sqrt(n) x mean(pnl) / std(pnl, ddof 1) (Van Tharp, backtesting.py);
   * null with fewer than two trades or when the std is 0 or only float noise (see
   * `isNegligibleSpread`).
   */
  readonly sqn: number | null;
  /**
   * Kelly criterion: W - (1 - W) / (avgWin / avgLoss), with W the win rate, avgWin the mean pnl
   * of winners and avgLoss the mean |pnl| of losers (backtesting.py; QuantStats' `kelly_criterion`
   * is the same formula on period returns, its W leaving zero returns out); null unless there are
   * both a winner and a loser (both give NaN there, avgWin or avgLoss being the mean of nothing).
   */
  readonly kelly: number | null;
}

/** A PnL as a line: the shortest text that reads back as the same double. */
const PNL_CODEC: RecordCodec<number> = { encode: (pnl) => String(pnl), decode: (line) => Number(line) };

/**
 * Running sums of closed round trips, taken one at a time as they close (the first of the two
 * passes of {@link tradeStats}), so a run need not read its trades back for them; the second
 * pass, over the same trades, gives the standard deviation of SQN. Sums run in trade order, as a
 * one-pass sum over an array would. Given a spill directory, the tally also keeps each trade's
 * PnL as a number there, and the second pass reads those instead of the trades: decoding a long
 * run's trades again (JSON and six Decimals each) cost it half a second at its end.
 */
export class TradeTally {
  private readonly pnls: SpillLog<number> | undefined;
  private n = 0;
  private returnSum = 0;
  private logSum = 0;
  private totalLoss = false;
  private best = Number.NEGATIVE_INFINITY;
  private worst = Number.POSITIVE_INFINITY;
  private longest = Number.NEGATIVE_INFINITY;
  private durationSum = 0;
  private pnlSum = 0;
  private winCount = 0;
  private grossWin = 0;
  private lossCount = 0;
  private lossSum = 0;

  /**
   * @param dir - where to keep the trades' PnLs for the second pass (the run's spill directory);
   *   without it the second pass reads the trades again
   */
  constructor(dir?: SpillDirectory) {
    this.pnls = dir === undefined ? undefined : new SpillLog(dir, 'trade-pnls', PNL_CODEC);
  }

  /** Trades added. */
  get count(): number {
    return this.n;
  }

  /**
   * Adds a closed trade.
   * @param t - the trade
   */
  add(t: RoundTripTrade): void {
    const r = t.returnFraction;
    const pnl = asNumber(t.pnl);
    this.pnls?.append(pnl);
    this.n++;
    this.returnSum += r;
    if (r <= -1) this.totalLoss = true;
    else this.logSum += Math.log1p(r);
    this.best = Math.max(this.best, r);
    this.worst = Math.min(this.worst, r);
    this.longest = Math.max(this.longest, t.durationMs);
    this.durationSum += t.durationMs;
    this.pnlSum += pnl;
    if (pnl > 0) {
      this.winCount++;
      this.grossWin += pnl;
    } else if (pnl < 0) {
      this.lossCount++;
      this.lossSum += pnl;
    }
  }

  /**
   * The statistics of the trades added.
   * @param trades - the same trades again, in the same order (read once more, for the standard
   *   deviation, unless the tally kept their PnLs); an array or a record log
   * @returns the statistics; see {@link TradeStats} for each formula
   * @throws RangeError when `trades` does not hold as many trades as were added
   */
  stats(trades: RecordLog<RoundTripTrade>): TradeStats {
    const n = this.n;
    if (trades.length !== n)
      throw new RangeError(`TradeTally.stats: ${n} trades were added but ${trades.length} were given again`);
    const pnlMean = n === 0 ? null : this.pnlSum / n;
    let pnlStd: number | null = null;
    if (pnlMean !== null && n >= 2) {
      let squares = 0;
      let largest = 0;
      for (const pnl of pnlsFrom(this.pnls, trades)) {
        squares += (pnl - pnlMean) * (pnl - pnlMean);
        largest = Math.max(largest, Math.abs(pnl));
      }
      const std = Math.sqrt(squares / (n - 1));
      // Equal PnLs give a std of float noise, not 0: SQN is then not defined.
      pnlStd = isNegligibleSpread(std, largest) ? 0 : std;
    }
    const winRate = n === 0 ? null : this.winCount / n;
    const grossLoss = -this.lossSum;
    const avgWin = this.winCount === 0 ? null : this.grossWin / this.winCount;
    const avgLoss = this.lossCount === 0 ? null : grossLoss / this.lossCount;
    return {
      tradeCount: n,
      winRate,
      bestTrade: n === 0 ? null : this.best,
      worstTrade: n === 0 ? null : this.worst,
      avgTrade: n === 0 || this.totalLoss ? null : Math.expm1(this.logSum / n),
      maxTradeDurationMs: n === 0 ? null : this.longest,
      avgTradeDurationMs: n === 0 ? null : this.durationSum / n,
      profitFactor: grossLoss === 0 ? null : finiteOrNull(this.grossWin / grossLoss),
      expectancy: n === 0 ? null : this.returnSum / n,
      sqn:
        pnlMean === null || pnlStd === null || pnlStd === 0
          ? null
          : finiteOrNull((Math.sqrt(n) * pnlMean) / pnlStd),
      kelly:
        winRate === null || avgWin === null || avgLoss === null
          ? null
          : finiteOrNull(winRate - (1 - winRate) / (avgWin / avgLoss)),
    };
  }
}

/** The trades' PnLs as numbers, in trade order: those kept, else read from the trades. */
function* pnlsFrom(kept: SpillLog<number> | undefined, trades: RecordLog<RoundTripTrade>): Generator<number> {
  if (kept !== undefined) {
    yield* kept.seal();
    return;
  }
  for (const t of trades) yield asNumber(t.pnl);
}

/**
 * Computes the trade statistics of closed round trips in two passes over them (the second for
 * the standard deviation of SQN), holding only running sums, so a file-backed log of any length
 * is read twice instead of loaded.
 * @param trades - closed round-trip trades (re-iterable: an array or a record log)
 * @returns the statistics; see {@link TradeStats} for each formula
 */
export function tradeStats(trades: RecordLog<RoundTripTrade>): TradeStats {
  const tally = new TradeTally();
  for (const t of trades) tally.add(t);
  return tally.stats(trades);
}
