import type { Dec, Execution } from '../../../core/model/index.ts';
import { asNumber, ZERO } from '../../../core/model/index.ts';
import type { TimeInterval } from '../equity-sample.ts';
import { netFee } from '../trades/net-fee.ts';
import type { OpenTrade, RoundTripTrade } from '../trades/round-trip-trade.ts';
import { exposureTime } from './exposure.ts';

/**
 * A run's figures for one sym, or for the whole run (the `total` row of a {@link SymBreakdown}).
 * Each is defined once, here; money is in the settle asset.
 */
export interface SymFigures {
  /** Closed round-trip trades (open trades are not counted, as in the run's `tradeCount`). */
  readonly trades: number;
  /** Trades with pnl > 0 / trades, in [0, 1] (the run's `winRate` on these trades); null without trades. */
  readonly winRate: number | null;
  /**
   * Σ pnl of the closed trades: their realised PnL net of the fees their fills paid. Funding,
   * loan interest and what open trades would make are not in it (they are in the equity).
   */
  readonly netPnl: Dec;
  /** Σ (fee - rebate) over the fills, open trades' entries included (the run's `feesPaid` on these fills). */
  readonly fees: Dec;
  /**
   * netPnl / the run's starting equity: the share of the starting equity the trades made or lost
   * (0.012 = +1.2 %); null when the starting equity is not positive.
   */
  readonly returnContribution: number | null;
  /**
   * Share of the run with a lot open, in [0, 1] ({@link exposureTime} of the round trips'
   * [entryTs, exitTs] and the open trades' [entryTs, end]).
   */
  readonly exposureTime: number;
}

/** {@link SymFigures} of one sym. */
export interface SymRow extends SymFigures {
  readonly sym: string;
}

/**
 * The run's figures per sym, one row for every sym with a fill (by sym name), and the same
 * figures for the whole run. Counts, `netPnl`, `fees` and `returnContribution` add up: the rows'
 * sum is the total (`returnContribution` to float rounding, a few units in the 16th digit), as
 * trades and fills each belong to one sym. `winRate` and `exposureTime` are ratios and do not add.
 */
export interface SymBreakdown {
  readonly syms: readonly SymRow[];
  readonly total: SymFigures;
}

/** Running sums of one sym's (or the run's) trades and fills. */
interface Sums {
  trades: number;
  wins: number;
  netPnl: Dec;
  fees: Dec;
}

function emptySums(): Sums {
  return { trades: 0, wins: 0, netPnl: ZERO, fees: ZERO };
}

/** What {@link SymTally.breakdown} needs beyond the trades and fills. */
export interface SymBreakdownSpan {
  /** Start and end of the run (its first and last equity sample), epoch ms. */
  readonly start: number;
  readonly end: number;
  /** The run's starting equity, in the settle asset. */
  readonly equityStart: Dec;
  /** When a lot of the sym was open; undefined for the whole run. */
  readonly exposureOf: (sym: string | undefined) => readonly TimeInterval[];
}

/**
 * The sums behind a {@link SymBreakdown}, taken fill by fill and trade by trade as a run goes, so
 * the run need not read its fills and trades back for them.
 */
export class SymTally {
  private readonly bySym = new Map<string, Sums>();

  private sumsOf(sym: string): Sums {
    let sums = this.bySym.get(sym);
    if (sums === undefined) {
      sums = emptySums();
      this.bySym.set(sym, sums);
    }
    return sums;
  }

  /**
   * Adds a fill's fee.
   * @param fill - the execution
   */
  addFill(fill: Execution): void {
    const sums = this.sumsOf(fill.sym);
    sums.fees = sums.fees.plus(netFee(fill));
  }

  /**
   * Adds a closed round trip.
   * @param trade - the trade
   */
  addTrade(trade: RoundTripTrade): void {
    const sums = this.sumsOf(trade.sym);
    sums.trades++;
    if (trade.pnl.isPositive() && !trade.pnl.isZero()) sums.wins++;
    sums.netPnl = sums.netPnl.plus(trade.pnl);
  }

  /**
   * The figures of what was added.
   * @param span - the run's start, end, starting equity and exposure intervals
   * @returns a row per sym (by name) and the run's total
   */
  breakdown(span: SymBreakdownSpan): SymBreakdown {
    const figures = (sums: Sums, sym: string | undefined): SymFigures => ({
      trades: sums.trades,
      winRate: sums.trades === 0 ? null : sums.wins / sums.trades,
      netPnl: sums.netPnl,
      fees: sums.fees,
      returnContribution: span.equityStart.gt(0) ? asNumber(sums.netPnl.div(span.equityStart)) : null,
      exposureTime: exposureTime([...span.exposureOf(sym)], span.start, span.end),
    });
    const syms = [...this.bySym.keys()].sort();
    // The run's total is the syms' sums added up once here, not kept beside them per fill.
    const all = emptySums();
    for (const sums of this.bySym.values()) {
      all.trades += sums.trades;
      all.wins += sums.wins;
      all.netPnl = all.netPnl.plus(sums.netPnl);
      all.fees = all.fees.plus(sums.fees);
    }
    return {
      syms: syms.map((sym) => ({ sym, ...figures(this.bySym.get(sym) as Sums, sym) })),
      total: figures(all, undefined),
    };
  }
}

/** What {@link symBreakdownOf} computes from. */
export interface SymBreakdownInput {
  readonly trades: Iterable<RoundTripTrade>;
  readonly openTrades: readonly OpenTrade[];
  readonly fills: Iterable<Execution>;
  readonly start: number;
  readonly end: number;
  readonly equityStart: Dec;
}

/**
 * The {@link SymBreakdown} of a result's trades and fills, read once each (a run tallies them as
 * it goes instead, with {@link SymTally}).
 * @param input - closed and open trades, fills, the run's span and starting equity
 * @returns a row per sym with a fill and the run's total
 */
export function symBreakdownOf(input: SymBreakdownInput): SymBreakdown {
  const tally = new SymTally();
  const intervals = new Map<string | undefined, TimeInterval[]>([[undefined, []]]);
  const hold = (sym: string, interval: TimeInterval): void => {
    const held = intervals.get(sym);
    if (held === undefined) intervals.set(sym, [interval]);
    else held.push(interval);
    intervals.get(undefined)?.push(interval);
  };
  for (const fill of input.fills) tally.addFill(fill);
  for (const trade of input.trades) {
    tally.addTrade(trade);
    hold(trade.sym, { from: trade.entryTs, to: trade.exitTs });
  }
  for (const open of input.openTrades) hold(open.sym, { from: open.entryTs, to: input.end });
  return tally.breakdown({ ...input, exposureOf: (sym) => intervals.get(sym) ?? [] });
}
