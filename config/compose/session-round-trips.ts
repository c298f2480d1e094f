import {
  type FillRecord,
  RoundTripBook,
  type RoundTrips,
  type RoundTripTrade,
} from '../../backtest/report/index.ts';
import type { Dec } from '../../core/model/index.ts';
import type { HoldingSpend } from './holding-spends.ts';

/**
 * The trades of a paper or live session: its fills paired first in first out, as
 * `roundTripsFromFills` pairs them, with the coin that left spot holdings without a fill taken out
 * of the open lots where it left, as a backtest's runner takes it (`RoundTripBook.spend`).
 * @param fills - the session's fills, in arrival order
 * @param spends - what left holdings, each placed after as many fills as it says
 * @param contractSizeOf - units of base per contract for a sym (PnL multiplier)
 * @returns closed trades in closing order, and the open lots in opening order
 */
export function sessionRoundTrips(
  fills: Iterable<FillRecord>,
  spends: readonly HoldingSpend[],
  contractSizeOf: (sym: string) => Dec,
): RoundTrips {
  const closed: RoundTripTrade[] = [];
  const book = new RoundTripBook((trade) => closed.push(trade), contractSizeOf);
  let next = 0;
  const spendUpTo = (fillsSoFar: number) => {
    for (
      let spend = spends[next];
      spend !== undefined && spend.afterFills <= fillsSoFar;
      spend = spends[++next]
    )
      book.spend(spend);
  };
  let count = 0;
  spendUpTo(count);
  for (const fill of fills) {
    book.add(fill);
    spendUpTo(++count);
  }
  book.flush();
  return { closed, open: book.openTrades() };
}
