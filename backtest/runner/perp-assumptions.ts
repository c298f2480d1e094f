import { type Dec, type InstrumentSpec, isPerpetual, type MarkPriceEvent } from '../../core/model/index.ts';
import type { CashFlowRecord } from '../report/index.ts';

/** What the market data gave of a perpetual's prices, as far as its mark and funding depend on it. */
export interface PerpFeed {
  /** Mark prices (MARK_PRICE): the simulated venue marks at them; else at the last price. */
  readonly marks: boolean;
  /** Funding rates with their funding times: the simulated venue settles funding only then. */
  readonly funding: boolean;
  /** Trades: without marks the venue marks at the last one. */
  readonly trades: boolean;
  /**
   * Closed bars: without marks the venue marks at the last one's close, and on the bar fill model
   * (`paths`) along each bar's path while it matches it; `none` without bars.
   */
  readonly bars: 'none' | 'closes' | 'paths';
  /** Quotes or books: without marks, trades or bars the venue marks at the quote mid. */
  readonly quotes: boolean;
}

/** The latest market events of each sym a run's kernel saw (its state's maps). */
export interface PerpMarketSeen {
  readonly marks: ReadonlyMap<string, MarkPriceEvent>;
  readonly trades: ReadonlyMap<string, unknown>;
  /** Closed feed bars. */
  readonly closedBars: ReadonlyMap<string, unknown>;
  readonly quotes: ReadonlyMap<string, unknown>;
  readonly books: ReadonlyMap<string, unknown>;
}

/** The terms the simulated venue margins a perpetual on. */
export interface PerpMarginTerms {
  /** @returns the leverage it trades the sym at */
  readonly leverageOf: (sym: string) => Dec;
  /** @returns the maintenance margin rate of the sym's positions */
  readonly maintenanceMarginRateOf: (sym: string) => Dec;
}

/**
 * What a run's market data gave of each perpetual: mark prices when the kernel saw a MARK_PRICE
 * event of the sym, funding when its latest one carried a funding rate and time or the venue
 * booked a funding payment on it, and which prices it saw besides.
 * @param seen - the latest market events of each sym, as the kernel's state holds them
 * @param cashFlows - the run's cash flows (absent when a session could not read them)
 * @param barFillModel - whether the venue matched on the bar fill model (it then marks along each
 *   bar's path)
 * @returns the feed of a sym
 */
export function perpFeedsOf(
  seen: PerpMarketSeen,
  cashFlows: readonly CashFlowRecord[] | undefined,
  barFillModel: boolean,
): (sym: string) => PerpFeed {
  const funded = new Set(
    (cashFlows ?? []).filter((flow) => flow.kind === 'FUNDING_FEE').map((flow) => flow.sym),
  );
  return (sym) => {
    const mark = seen.marks.get(sym);
    return {
      marks: mark !== undefined,
      funding: funded.has(sym) || (mark?.fundingRate !== undefined && mark.nextFundingTime !== undefined),
      trades: seen.trades.has(sym),
      bars: !seen.closedBars.has(sym) ? 'none' : barFillModel ? 'paths' : 'closes',
      quotes: seen.quotes.has(sym) || seen.books.has(sym),
    };
  };
}

/**
 * Where the simulated venue took a perpetual's mark from without MARK_PRICE: its last price, the
 * last trade or closed bar's close (`market-state.ts`, `lastPriceOf`), else the quote mid.
 */
function lastPriceText(feed: PerpFeed): string {
  const bars = feed.bars !== 'none';
  if (!feed.trades && !bars)
    return feed.quotes ? 'the quote mid (the middle of the best bid and ask)' : 'the last price';
  const [last, first] =
    feed.trades && bars
      ? ['the last price, the latest trade or bar close', 'the first trade or bar']
      : feed.trades
        ? ['the last trade price', 'the first trade']
        : ["the last bar's close", 'the first bar'];
  const notes = [
    ...(feed.bars === 'paths' ? ["along each bar's path while it is matched: open, extremes, close"] : []),
    ...(feed.quotes ? [`the quote mid before ${first}`] : []),
  ];
  return notes.length === 0 ? last : `${last} (${notes.join('; ')})`;
}

function percentText(rate: Dec): string {
  return `${rate.mul(100).toFixed()} %`;
}

function feedLine(sym: string, feed: PerpFeed, source: string): string {
  const mark = feed.marks
    ? `marked at the mark prices ${source} gave (MARK_PRICE)`
    : `${source} gave no mark price, so it is marked at ${lastPriceText(feed)}`;
  const funding = feed.funding
    ? 'funding settled at the rates and funding times of its MARK_PRICE events (qty x mark x rate at each funding time)'
    : `funding: none recorded (no MARK_PRICE funding rate in ${source}), so no funding is charged`;
  return `${sym} mark and funding: ${mark} for margin, liquidation and mark-price triggers; ${funding}.`;
}

function marginLine(spec: InstrumentSpec, terms: PerpMarginTerms): string {
  const leverage = terms.leverageOf(spec.sym).toFixed();
  return (
    `${spec.sym} margin: cross margin at leverage ${leverage} (initial margin = notional / ${leverage}), ` +
    `maintenance margin rate ${percentText(terms.maintenanceMarginRateOf(spec.sym))} of notional; ` +
    'the account is liquidated when its equity falls below its maintenance margin: orders cancelled, ' +
    `positions closed at the mark paying a liquidation fee of ${percentText(spec.liquidationFee)} of notional instead of the trading fee, ` +
    'no insurance fund.'
  );
}

/**
 * The report's assumptions of each perpetual the simulated venue (or the paper venue on it)
 * trades: where its mark and funding came from, and the leverage, maintenance margin rate and
 * liquidation fee it was margined and liquidated on. A backtest and a paper run say the same.
 * @param instruments - the run's instruments (only perpetuals get lines)
 * @param feedOf - what the market data gave of each (see {@link perpFeedsOf})
 * @param terms - the venue's leverage and maintenance margin rate of each
 * @param source - what the market data came from, as the sentences name it (`the feed` for a
 *   paper run)
 * @returns two sentences per perpetual, in instrument order
 */
export function perpAssumptions(
  instruments: readonly InstrumentSpec[],
  feedOf: (sym: string) => PerpFeed,
  terms: PerpMarginTerms,
  source = 'the recordings',
): string[] {
  return instruments
    .filter((spec) => isPerpetual(spec.id))
    .flatMap((spec) => [feedLine(spec.sym, feedOf(spec.sym), source), marginLine(spec, terms)]);
}
