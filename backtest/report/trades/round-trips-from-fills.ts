import type { Dec } from '../../../core/model/index.ts';
import type { FillRecord } from '../result/owned-records.ts';
import type { AdoptedPosition } from './lot-book.ts';
import { RoundTripBook } from './round-trip-book.ts';
import type { OpenTrade, RoundTripTrade } from './round-trip-trade.ts';

/** Coin that left a holding without a fill, placed after as many of the fills as `afterFills`. */
export type PlacedSpend = Parameters<RoundTripBook['spend']>[0] & { readonly afterFills: number };

/** Options of {@link roundTripsFromFills}. */
export interface RoundTripOptions {
  /** Units of base per contract for a sym (PnL multiplier); 1 when omitted or undefined. */
  readonly contractSizeOf?: (sym: string) => Dec | undefined;
  /**
   * Coin that left spot holdings without a fill (loan interest paid in the coin: a paper or live
   * session finds it in the venue's position reports), in `afterFills` order: each is taken out of
   * the open lots (`RoundTripBook.spend`) once that many fills were paired, as a backtest's runner
   * takes it when the simulated venue reports it.
   */
  readonly spends?: readonly PlacedSpend[];
  /**
   * The positions the account held before the first fill (a live or paper session's adopted
   * positions): each opens a lot first (`RoundTripBook.adopt`), so a fill reducing it closes it.
   */
  readonly adopted?: readonly AdoptedPosition[];
  /**
   * The batch of an order's fills by its clientOrderId (`EntryBatches.batchOf`): fills of the
   * orders of one batch count as one order's (`RoundTripBook.add`); omitted, or undefined for an
   * order, = the order is a batch of its own.
   */
  readonly batchOf?: (clientOrderId: string) => string | undefined;
}

/** The trades a list of fills makes: closed round trips and what is still open. */
export interface RoundTrips {
  readonly closed: readonly RoundTripTrade[];
  readonly open: readonly OpenTrade[];
}

/**
 * Pairs fills into round-trip trades, first in first out, per sym and positionSide. A fill
 * against the open lots' direction closes them oldest first; what it has left opens a new lot
 * (in NET mode a BUY larger than the short position closes it and opens a long). Consecutive
 * partial fills of one order count as one fill, so an order filled in pieces makes one trade, not
 * one per piece. Fees minus rebates are split pro rata to quantity, so the trades' fees always add up to the fills' fees.
 * Positions held before the first fill (`options.adopted`) are lots from the start.
 * Holds every closed trade: a long run pairs its fills with a {@link RoundTripBook} instead.
 * @param fills - executions in the order they happened (a fill's `strategyId`, when set, names
 *   the trades' entry and exit strategies)
 * @param options - contract sizes for PnL, and what left holdings without a fill
 * @returns closed trades in closing order, and the open lots in opening order
 * @example
 * const { closed } = roundTripsFromFills([buy(1, '100'), sell(1, '110')]); // one LONG trade, +10
 */
export function roundTripsFromFills(fills: Iterable<FillRecord>, options: RoundTripOptions = {}): RoundTrips {
  const closed: RoundTripTrade[] = [];
  const book = new RoundTripBook((trade) => closed.push(trade), options.contractSizeOf);
  for (const position of options.adopted ?? []) book.adopt(position);
  const spends = options.spends ?? [];
  let next = 0;
  const spendUpTo = (paired: number): void => {
    for (let spend = spends[next]; spend !== undefined && spend.afterFills <= paired; spend = spends[++next])
      book.spend(spend);
  };
  let paired = 0;
  spendUpTo(paired);
  const batchOf = options.batchOf;
  for (const fill of fills) {
    book.add(fill, fill.strategyId, batchOf?.(fill.clientOrderId));
    spendUpTo(++paired);
  }
  book.flush();
  return { closed, open: book.openTrades() };
}
