import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptySymMarket, foldMarket } from '../../../backtest/sim/market-state.ts';
import type { BookLevel } from '../../../core/model/index.ts';
import { aBook, aQuote } from '../../kit/sim-builders.ts';

const level = fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 50 }));
const quoteOrBook = fc.oneof(
  fc.record({ kind: fc.constant('quote' as const), bid: level, ask: level }),
  fc.record({
    kind: fc.constant('book' as const),
    bids: fc.array(level, { maxLength: 3 }),
    asks: fc.array(level, { maxLength: 3 }),
  }),
);

describe('sim market state: displayed levels', () => {
  it("moves a quote's levels into the same two arrays every time: a quote makes no arrays", () => {
    const market = emptySymMarket();
    foldMarket(market, aQuote(1, 99, 2, 101, 3));
    const bids = market.bids;
    const asks = market.asks;
    foldMarket(market, aQuote(2, 98, 4, 102, 5));
    expect(market.bids).toBe(bids);
    expect(market.asks).toBe(asks);
    expect(market.bids).toEqual([[98, 4]]);
    expect(market.asks).toEqual([[102, 5]]);
  });

  it('shows the latest quote or book after any sequence, leaving every book event as it came', () => {
    fc.assert(
      fc.property(fc.array(quoteOrBook, { minLength: 1, maxLength: 30 }), (updates) => {
        const market = emptySymMarket();
        const books: { bids: BookLevel[]; asks: BookLevel[]; copy: string }[] = [];
        updates.forEach((update, i) => {
          if (update.kind === 'quote') {
            foldMarket(market, aQuote(i, update.bid[0], update.bid[1], update.ask[0], update.ask[1]));
            expect(market.bids).toEqual([update.bid]);
            expect(market.asks).toEqual([update.ask]);
          } else {
            const bids = update.bids.map((l) => [...l] as BookLevel);
            const asks = update.asks.map((l) => [...l] as BookLevel);
            books.push({ bids, asks, copy: JSON.stringify([bids, asks]) });
            foldMarket(market, aBook(i, bids, asks));
            expect(market.bids).toEqual(update.bids);
            expect(market.asks).toEqual(update.asks);
          }
        });
        for (const book of books) expect(JSON.stringify([book.bids, book.asks])).toBe(book.copy);
      }),
      { numRuns: 200 },
    );
  });
});
