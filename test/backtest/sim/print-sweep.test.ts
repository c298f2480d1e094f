import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aBook, aLimit, aMarket, anAlgo, aQuote, aSim, aTrade, fillLines } from '../../kit/sim-builders.ts';

describe('sim venue: a print through the displayed touch sweeps the levels it went through', () => {
  it('stop fired by a print through the bid does not sell at the swept bid', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 50));
    t.send(aMarket('p1', 'BUY', '1'));
    t.sim.advanceTo(2);
    t.send(anAlgo('stop', { side: 'SELL', conditionType: 'LTE', triggerPrice: D('95'), reduceOnly: true }));
    t.sim.advanceTo(3);
    t.sim.onMarket(aTrade(4, 94, 60, 'SELL')); // sweep; BBO update comes after the print
    t.sim.onMarket(aQuote(5, 93.9, 10, 94, 10));
    const sell = t.of('execution').find((e) => e.execution.side === 'SELL')?.execution;
    expect(sell?.price.lte(94)).toBe(true);
  });

  it('market order after a print through the ask does not buy at the swept ask', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 5));
    t.sim.onMarket(aTrade(2, 101, 30, 'BUY'));
    t.send(aMarket('m', 'BUY', '1'));
    t.sim.advanceTo(3);
    expect(t.of('execution')[0]?.execution.price.gte(101)).toBe(true);
  });

  it("offers the print's size at its price, then fills a market order's rest beyond it", () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 5));
    t.sim.onMarket(aTrade(2, 101, 3, 'BUY'));
    t.send(aMarket('m', 'BUY', '5'));
    t.sim.advanceTo(3);
    // 3 @101 (the print), the other 2 one tick (0.1) beyond it
    expect(fillLines(t)).toEqual(['m BUY 3@101 TAKER', 'm BUY 2@101.1 TAKER']);
  });

  it('does not offer the size of the print twice', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 5));
    t.sim.onMarket(aTrade(2, 101, 3, 'BUY'));
    t.send(aMarket('m1', 'BUY', '2'), aMarket('m2', 'BUY', '2'));
    t.sim.advanceTo(3);
    expect(fillLines(t)).toEqual(['m1 BUY 2@101 TAKER', 'm2 BUY 1@101 TAKER', 'm2 BUY 1@101.1 TAKER']);
  });

  it('keeps the displayed levels beyond the print on a book', () => {
    const t = aSim();
    t.sim.onMarket(
      aBook(
        1,
        [[99.9, 5]],
        [
          [100, 1],
          [100.1, 1],
          [100.2, 4],
        ],
      ),
    );
    t.sim.onMarket(aTrade(2, 100.1, 2, 'BUY'));
    t.send(aMarket('m', 'BUY', '5'));
    t.sim.advanceTo(3);
    // 100 is gone; 2 @100.1 (the print, not the displayed 1), then 3 of the 4 @100.2
    expect(fillLines(t)).toEqual(['m BUY 2@100.1 TAKER', 'm BUY 3@100.2 TAKER']);
  });

  it('lasts until the next quote, which shows the book again', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 5));
    t.sim.onMarket(aTrade(2, 101, 30, 'BUY'));
    t.sim.onMarket(aQuote(3, 100, 50, 100.1, 5));
    t.send(aMarket('m', 'BUY', '1'));
    t.sim.advanceTo(4);
    expect(fillLines(t)).toEqual(['m BUY 1@100.1 TAKER']);
  });

  it('leaves the side alone for a print at the touch or inside the spread', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.2, 5));
    t.sim.onMarket(aTrade(2, 100.2, 3, 'BUY'));
    t.sim.onMarket(aTrade(3, 100.1, 3, 'SELL'));
    t.send(aMarket('b', 'BUY', '1'), aMarket('s', 'SELL', '1'));
    t.sim.advanceTo(4);
    expect(fillLines(t)).toEqual(['b BUY 1@100.2 TAKER', 's SELL 1@100 TAKER']);
  });

  it('takes a later print further through as the new level, not one back between it and the touch', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 5));
    t.sim.onMarket(aTrade(2, 94, 5, 'SELL'));
    // a bounce to 97 (another sell) does not show bids back above 94
    t.sim.onMarket(aTrade(3, 97, 5, 'SELL'));
    t.send(aMarket('s1', 'SELL', '1'));
    t.sim.advanceTo(4);
    // a print further down, at 93, is the level now
    t.sim.onMarket(aTrade(5, 93, 5, 'SELL'));
    t.send(aMarket('s2', 'SELL', '1'));
    t.sim.advanceTo(6);
    expect(fillLines(t)).toEqual(['s1 SELL 1@94 TAKER', 's2 SELL 1@93 TAKER']);
  });

  it('does not offer an arriving order the part of the print a resting order filled from', () => {
    const t = aSim({ fillModel: 'touch' });
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 5));
    t.send(aLimit('r', 'BUY', '2', '95'));
    t.sim.advanceTo(2);
    // the print through the bids fills our resting BUY @95 with 2 of its 3
    t.sim.onMarket(aTrade(3, 94, 3, 'SELL'));
    t.send(aMarket('s', 'SELL', '3'));
    t.sim.advanceTo(4);
    expect(fillLines(t)).toEqual(['r BUY 2@95 MAKER', 's SELL 1@94 TAKER', 's SELL 2@93.9 TAKER']);
  });

  it('rests a post-only order the print shows would no longer take', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 5));
    t.sim.onMarket(aTrade(2, 94, 60, 'SELL'));
    // the bids above 94 are gone: a post-only SELL @97 no longer crosses the bid and rests
    t.send(aLimit('p', 'SELL', '1', '97', { timeInForce: 'GTX' }));
    t.sim.advanceTo(3);
    expect(t.of('order').at(-1)?.order.orderState).toBe('OPEN');
  });

  it("sweeps only the side the print's aggressor took: a buyer's late print below a bid the quote moved up sweeps nothing", () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 50));
    t.sim.onMarket(aQuote(2, 101, 50, 101.1, 50)); // the market moved up
    t.sim.onMarket(aTrade(3, 100.1, 1, 'BUY')); // a buyer's late print at the old ask
    t.send(aMarket('s', 'SELL', '5'));
    t.sim.advanceTo(4);
    expect(fillLines(t)).toEqual(['s SELL 5@101 TAKER']);
  });

  it('leaves a buyer what a level displayed at the print price keeps after the print', () => {
    const t = aSim();
    t.sim.onMarket(
      aBook(
        1,
        [[100, 50]],
        [
          [100.1, 5],
          [100.2, 50],
        ],
      ),
    );
    t.sim.onMarket(aTrade(2, 100.2, 1, 'BUY'));
    t.send(aMarket('b', 'BUY', '10'));
    t.sim.advanceTo(3);
    expect(fillLines(t)).toEqual(['b BUY 10@100.2 TAKER']);
  });
});
