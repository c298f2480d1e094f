import { type Dec, type InstrumentSpec, isPerpetual, type MarkPriceEvent } from '../../core/model/index.ts';
import type { CashFlowRecord } from '../report/index.ts';

/** What the market data gave of a perpetual's venue-side prices. */
export interface PerpFeed {
  /** Mark prices (MARK_PRICE): the simulated venue marks at them; else at the last price. */
  readonly marks: boolean;
  /** Funding rates with their funding times: the simulated venue settles funding only then. */
  readonly funding: boolean;
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
 * booked a funding payment on it.
 * @param marks - the latest MARK_PRICE event of each sym, as the kernel's state holds them
 * @param cashFlows - the run's cash flows (absent when a session could not read them)
 * @returns the feed of a sym
 */
export function perpFeedsOf(
  marks: ReadonlyMap<string, MarkPriceEvent>,
  cashFlows: readonly CashFlowRecord[] | undefined,
): (sym: string) => PerpFeed {
  const funded = new Set(
    (cashFlows ?? []).filter((flow) => flow.kind === 'FUNDING_FEE').map((flow) => flow.sym),
  );
  return (sym) => {
    const mark = marks.get(sym);
    return {
      marks: mark !== undefined,
      funding: funded.has(sym) || (mark?.fundingRate !== undefined && mark.nextFundingTime !== undefined),
    };
  };
}

function percentText(rate: Dec): string {
  return `${rate.mul(100).toFixed()} %`;
}

function feedLine(sym: string, feed: PerpFeed, source: string): string {
  const mark = feed.marks
    ? `marked at the mark prices ${source} gave (MARK_PRICE)`
    : `${source} gave no mark price, so it is marked at the last price (on bars along each bar's path)`;
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
