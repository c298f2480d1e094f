import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BookLevel } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import {
  aBar,
  aBook,
  aLimit,
  aMarket,
  aQuote,
  aSim,
  aTrade,
  BTC,
  fillLines,
} from '../../kit/sim-builders.ts';

const ASKS: BookLevel[] = [
  [100, 1],
  [100.1, 2],
  [100.2, 1],
];

describe('matching: a crossed limit remainder', () => {
  for (const model of ['touch', 'through', 'queue'] as const) {
    it(`walks the book level by level at each level's price (${model})`, () => {
      const t = aSim({ fillModel: model });
      t.sim.onMarket(aBook(1, [[99.9, 5]], ASKS));
      t.send(aLimit('l', 'BUY', '5', '100.1'));
      // arrival takes 1 @100 and 2 @100.1 (within the limit); 2 rest, crossing the book
      t.sim.onMarket(aBook(2, [[99.9, 5]], ASKS));
      expect(fillLines(t)).toEqual(['l BUY 1@100 TAKER', 'l BUY 2@100.1 TAKER']);
      // the same book again: its 1 @100 and 2 @100.1 were taken already, nothing new to take
      t.sim.onMarket(aBook(3, [[99.9, 5]], ASKS));
      expect(fillLines(t)).toHaveLength(2);
      // new sizes are new liquidity: 0.5 @100, then 1.5 of the 3 @100.1 (2 wanted = 0.5 + 1.5);
      // 100.2 is beyond the limit. Average (1x100 + 2x100.1 + 0.5x100 + 1.5x100.1) / 5 = 100.07
      t.sim.onMarket(
        aBook(
          4,
          [[99.9, 5]],
          [
            [100, 0.5],
            [100.1, 3],
            [100.2, 1],
          ],
        ),
      );
      expect(fillLines(t)).toEqual([
        'l BUY 1@100 TAKER',
        'l BUY 2@100.1 TAKER',
        'l BUY 0.5@100 TAKER',
        'l BUY 1.5@100.1 TAKER',
      ]);
      expect(t.of('order').at(-1)?.order.executedAvgPrice.toFixed()).toBe('100.07');
    });
  }

  it('fills a crossed remainder at the trade price from trades, less the displayed ask they show lifted', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 99.9, 5, 100, 1));
    t.send(aLimit('l', 'BUY', '3', '100.1'));
    // arrival: 1 @100 (the displayed ask); 2 rest crossed
    t.sim.onMarket(aQuote(2, 99.9, 5, 100, 1));
    // a BUY print of 1.5 @100 lifts the displayed ask the arrival already took, then 0.5 more: 0.5
    // @100; a second print of 1 is liquidity of its own: 1 @100, 0.5 left
    t.sim.onMarket(aTrade(3, 100, 1.5, 'BUY'));
    t.sim.onMarket(aTrade(4, 100, 1, 'BUY'));
    expect(fillLines(t)).toEqual(['l BUY 1@100 TAKER', 'l BUY 0.5@100 TAKER', 'l BUY 1@100 TAKER']);
  });
});

describe('matching: displayed size is offered once until it changes', () => {
  it('fills a resting buy once against an ask repeated on three quotes (touch)', () => {
    const t = aSim({ fillModel: 'touch' });
    t.sim.onMarket(aQuote(1, 99.9, 3, 100.1, 3));
    t.send(aLimit('b', 'BUY', '5', '100'));
    t.sim.onMarket(aQuote(2, 99.9, 3, 100.1, 3));
    // ask 100 x2 touches our 100: 2 @100
    t.sim.onMarket(aQuote(3, 99.9, 3, 100, 2));
    // the same 2 displayed again (the bid side moves): already taken, nothing more
    t.sim.onMarket(aQuote(4, 99.8, 3, 100, 2));
    t.sim.onMarket(aQuote(5, 99.7, 3, 100, 2));
    expect(fillLines(t)).toEqual(['b BUY 2@100 MAKER']);
    // a changed size is new liquidity: 3 more @100 completes the 5
    t.sim.onMarket(aQuote(6, 99.7, 3, 100, 3));
    expect(fillLines(t)).toEqual(['b BUY 2@100 MAKER', 'b BUY 3@100 MAKER']);
  });

  it('offers a level again after it went away and came back with the same size', () => {
    const t = aSim({ fillModel: 'touch' });
    t.sim.onMarket(aQuote(1, 99.9, 3, 100.1, 3));
    t.send(aLimit('b', 'BUY', '5', '100'));
    t.sim.onMarket(aQuote(2, 99.9, 3, 100, 2));
    t.sim.onMarket(aQuote(3, 99.9, 3, 100.1, 3));
    // 100 x2 is back after a quote without it: new liquidity, 2 more
    t.sim.onMarket(aQuote(4, 99.9, 3, 100, 2));
    expect(fillLines(t)).toEqual(['b BUY 2@100 MAKER', 'b BUY 2@100 MAKER']);
  });

  it('shares one display between two resting orders and does not offer it again', () => {
    const t = aSim({ fillModel: 'through' });
    t.sim.onMarket(aQuote(1, 99.8, 3, 100.1, 3));
    t.send(aLimit('a', 'BUY', '1', '100'), aLimit('b', 'BUY', '2', '100'));
    // ask 99.9 x2 goes through both: a takes 1, b the other 1
    t.sim.onMarket(aQuote(2, 99.8, 3, 99.9, 2));
    t.sim.onMarket(aQuote(3, 99.8, 3, 99.9, 2));
    expect(fillLines(t)).toEqual(['a BUY 1@100 MAKER', 'b BUY 1@100 MAKER']);
  });

  it('does not let a second market order take the size the first one took', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 99.9, 3, 100, 1));
    t.send(aMarket('m1', 'BUY', '1'), aMarket('m2', 'BUY', '1'));
    // m1 takes the 1 @100; for m2 the level is empty, so it fills one tick (0.1) beyond: 100.1
    t.sim.onMarket(aQuote(2, 99.9, 3, 100, 1));
    expect(fillLines(t)).toEqual(['m1 BUY 1@100 TAKER', 'm2 BUY 1@100.1 TAKER']);
  });

  it('leaves the taken size of one side alone when only the other side changes', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aBook(1, [[99.9, 3]], [[100, 1]]));
    t.send(aLimit('l', 'BUY', '2', '100'));
    // arrival takes the 1 @100, 1 rests crossed
    t.sim.onMarket(aBook(2, [[99.9, 3]], [[100, 1]]));
    // bids change, asks do not: the ask 100 x1 is the one already taken
    t.sim.onMarket(aBook(3, [[99.8, 4]], [[100, 1]]));
    expect(fillLines(t)).toEqual(['l BUY 1@100 TAKER']);
  });
});

describe('matching: displayed size as a cap (property)', () => {
  it('fills resting orders with min(displayed, their total) however often an unchanged ask repeats', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('touch', 'through', 'queue' as const),
        fc.integer({ min: 1, max: 10 }),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 6 }),
        (model, shown, orderQtys, repeats) => {
          const t = aSim({ fillModel: model });
          t.sim.onMarket(aQuote(1, 99.8, 3, 100.1, 3));
          t.send(...orderQtys.map((qty, i) => aLimit(`b${i}`, 'BUY', String(qty), '100')));
          t.sim.onMarket(aQuote(2, 99.8, 3, 100.1, 3));
          // an ask of 99.9 goes through every order's 100 under all three models (queue 0: bid below)
          for (let i = 0; i < repeats; i++) t.sim.onMarket(aQuote(3 + i, 99.8, 3, 99.9, shown));
          const filled = t.of('execution').reduce((sum, e) => sum + Number(e.execution.quantity), 0);
          const wanted = orderQtys.reduce((sum, qty) => sum + qty, 0);
          expect(filled).toBe(Math.min(shown, wanted));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('matching: a recording with trades only', () => {
  it("limits a market order to the last trade's size; the rest fills one tick beyond", () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aTrade(1, 100, 2, 'BUY'));
    t.send(aMarket('m', 'BUY', '5'));
    // the last trade shows 2 @100: 2 @100, the other 3 at 100 + 1 tick (0.1) = 100.1
    t.sim.onMarket(aTrade(2, 100, 2, 'BUY'));
    expect(fillLines(t)).toEqual(['m BUY 2@100 TAKER', 'm BUY 3@100.1 TAKER']);
  });

  it("takes up to the last trade's size with a marketable limit, and the rest waits for later trades", () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aTrade(1, 100, 2, 'BUY'));
    t.send(aLimit('l', 'BUY', '5', '100.5'));
    // arrival: 2 @100 from the last trade; 3 rest crossed
    t.sim.onMarket(aTrade(2, 100.2, 1, 'BUY'));
    // the trade at ts 2 is then met by the resting remainder: 1 @100.2
    expect(fillLines(t)).toEqual(['l BUY 2@100 TAKER', 'l BUY 1@100.2 TAKER']);
  });

  it('does not offer an arriving order the part of a print a resting order already filled from', () => {
    const t = aSim({ fillModel: 'touch' });
    t.sim.onMarket(aTrade(1, 100.2, 1, 'BUY'));
    t.send(aLimit('s', 'SELL', '1', '100.3'));
    // the print 1 @100.3 fills the resting SELL 1 @100.3 and leaves 1 - 1 = 0 of that level, so
    // the market SELL 1 arriving before the next print fills one tick beyond: 100.3 - 0.1 = 100.2
    t.sim.onMarket(aTrade(2, 100.3, 1, 'BUY'));
    t.send(aMarket('m', 'SELL', '1'));
    t.sim.advanceTo(2);
    expect(fillLines(t)).toEqual(['s SELL 1@100.3 MAKER', 'm SELL 1@100.2 TAKER']);
  });

  it('offers an arriving order the rest of a print a resting order took part of', () => {
    const t = aSim({ fillModel: 'touch' });
    t.sim.onMarket(aTrade(1, 100.2, 1, 'BUY'));
    t.send(aLimit('s', 'SELL', '1', '100.3'));
    // print 3 @100.3: the resting SELL takes 1, 3 - 1 = 2 are left; a market SELL 3 takes those
    // 2 @100.3 and its last 1 one tick beyond @100.2
    t.sim.onMarket(aTrade(2, 100.3, 3, 'BUY'));
    t.send(aMarket('m', 'SELL', '3'));
    t.sim.advanceTo(2);
    expect(fillLines(t)).toEqual(['s SELL 1@100.3 MAKER', 'm SELL 2@100.3 TAKER', 'm SELL 1@100.2 TAKER']);
  });
});

describe('orders waiting for their next bar', () => {
  it("keeps another sym's waiting order when a fill cancels a reduce-only order waiting beside it", () => {
    const ETH = 'BINANCE_PERP_ETH_USDT';
    const t = aSim({ fillModel: 'bar', instruments: [anInstrument(BTC), anInstrument(ETH)] });
    for (const sym of [BTC, ETH]) t.sim.onMarket(aBar(60_000, 99, 101, 98, 100, sym));
    t.send(aMarket('b', 'BUY', '2'));
    for (const sym of [BTC, ETH]) t.sim.onMarket(aBar(120_000, 100, 100.5, 99.5, 100, sym));
    // All three wait for the next open: s closes the long, so ro is cancelled before its turn.
    t.send(
      aMarket('s', 'SELL', '2'),
      aMarket('ro', 'SELL', '2', { reduceOnly: true }),
      aMarket('e', 'BUY', '1', { sym: ETH }),
    );
    for (const sym of [BTC, ETH]) t.sim.onMarket(aBar(180_000, 100, 100.5, 99.5, 100, sym));
    // Before: ro's place, already gone from the waiting list, was looked up as -1 and e was dropped.
    expect(fillLines(t)).toEqual(['b BUY 2@100 TAKER', 's SELL 2@100 TAKER', 'e BUY 1@100 TAKER']);
  });
});
