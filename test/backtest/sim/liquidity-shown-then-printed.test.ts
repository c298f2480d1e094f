import { describe, expect, it } from 'vitest';
import type { SimUnderTest } from '../../kit/sim-builders.ts';
import { aLimit, aQuote, aSim, aTrade, fillLines } from '../../kit/sim-builders.ts';

function filledQty(t: SimUnderTest): number {
  return t.of('execution').reduce((s, e) => s + Number(e.execution.quantity.toFixed()), 0);
}

describe('sim venue: liquidity displayed through our price and then printed is one liquidity', () => {
  it('queue: an ask through our bid is not counted twice (displayed, then its print)', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 100, 3, 100.1, 5));
    t.send(aLimit('b1', 'BUY', '10', '100'));
    t.sim.advanceTo(2);
    t.sim.onMarket(aQuote(3, 99.8, 4, 99.9, 5));
    t.sim.onMarket(aTrade(4, 99.9, 5, 'BUY'));
    t.sim.onMarket(aQuote(5, 99.8, 4, 100, 2));
    expect(filledQty(t)).toBeLessThanOrEqual(7);
  });

  for (const model of ['touch', 'through'] as const) {
    it(`${model}: the BUY print of an ask the quote gave us fills nothing more; its size beyond does`, () => {
      const t = aSim({ fillModel: model });
      t.sim.onMarket(aQuote(1, 99.8, 3, 100.1, 5));
      t.send(aLimit('b1', 'BUY', '10', '100'));
      t.sim.onMarket(aQuote(2, 99.8, 4, 99.9, 5));
      t.sim.onMarket(aTrade(3, 99.9, 6, 'BUY'));
      expect(fillLines(t)).toEqual(['b1 BUY 5@100 MAKER', 'b1 BUY 1@100 MAKER']);
    });
  }

  it('touch: a BUY print at our bid lifting the ask the quote gave us fills nothing more', () => {
    const t = aSim({ fillModel: 'touch' });
    t.sim.onMarket(aQuote(1, 99.8, 3, 100.1, 5));
    t.send(aLimit('b1', 'BUY', '10', '100'));
    t.sim.onMarket(aQuote(2, 99.8, 4, 100, 2));
    t.sim.onMarket(aTrade(3, 100, 2, 'BUY'));
    expect(fillLines(t)).toEqual(['b1 BUY 2@100 MAKER']);
  });

  it('a second print at the same price is liquidity of its own', () => {
    const t = aSim({ fillModel: 'through' });
    t.sim.onMarket(aQuote(1, 99.8, 3, 100.1, 5));
    t.send(aLimit('b1', 'BUY', '10', '100'));
    t.sim.onMarket(aQuote(2, 99.8, 4, 99.9, 5));
    t.sim.onMarket(aTrade(3, 99.9, 5, 'BUY'));
    t.sim.onMarket(aTrade(4, 99.9, 2, 'BUY'));
    expect(fillLines(t)).toEqual(['b1 BUY 5@100 MAKER', 'b1 BUY 2@100 MAKER']);
  });

  it('a SELL print through our bid went through our level, which it emptied first: it fills', () => {
    const t = aSim({ fillModel: 'through' });
    t.sim.onMarket(aQuote(1, 99.8, 3, 100.1, 5));
    t.send(aLimit('b1', 'BUY', '10', '100'));
    t.sim.onMarket(aQuote(2, 99.8, 4, 99.9, 5));
    t.sim.onMarket(aTrade(3, 99.9, 3, 'SELL'));
    expect(fillLines(t)).toEqual(['b1 BUY 5@100 MAKER', 'b1 BUY 3@100 MAKER']);
  });

  it('mirrors for a resting sell: a bid through it, then the SELL print hitting that bid', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 99.8, 3, 100.2, 5));
    t.send(aLimit('s1', 'SELL', '10', '100'));
    t.sim.onMarket(aQuote(2, 100.1, 4, 100.2, 5));
    t.sim.onMarket(aTrade(3, 100.1, 4, 'SELL'));
    expect(fillLines(t)).toEqual(['s1 SELL 4@100 MAKER']);
  });

  it('counts what an arriving order took of the display, for its crossed rest too', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 99.8, 3, 99.9, 5));
    // takes the 5 @99.9 on arrival; 5 rest crossed at 100
    t.send(aLimit('b1', 'BUY', '10', '100'));
    t.sim.advanceTo(2);
    // the BUY print of those same 5 gives the rest nothing
    t.sim.onMarket(aTrade(3, 99.9, 5, 'BUY'));
    expect(fillLines(t)).toEqual(['b1 BUY 5@99.9 TAKER']);
  });
});
