import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aBook, aLimit, aQuote, aSim, aTrade, BTC, fillLines } from '../../kit/sim-builders.ts';

describe('sim venue: queue model, a display showing a trade before its print', () => {
  it('queue: quote showing a trade before its print does not let the print eat the queue twice', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 100, 3, 100.1, 5));
    t.send(aLimit('b1', 'BUY', '1', '100'));
    t.sim.onMarket(aQuote(2, 100, 1, 100.1, 5));
    t.sim.onMarket(aTrade(3, 100, 2, 'SELL'));
    expect(fillLines(t)).toEqual([]);
    // the print explained the 2 that went: the next sell at our price eats the 1 left ahead first
    t.sim.onMarket(aTrade(4, 100, 1.5, 'SELL'));
    expect(fillLines(t)).toEqual(['b1 BUY 0.5@100 MAKER']);
  });

  it('stays exact when the print comes first, as the display that follows shows', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 100, 3, 100.1, 5));
    t.send(aLimit('b1', 'BUY', '1', '100'));
    t.sim.onMarket(aTrade(2, 100, 2, 'SELL'));
    t.sim.onMarket(aQuote(3, 100, 1, 100.1, 5));
    t.sim.onMarket(aTrade(4, 100, 1.5, 'SELL'));
    expect(fillLines(t)).toEqual(['b1 BUY 0.5@100 MAKER']);
  });

  it('takes a print after a display that showed the level gone as the trade that emptied it', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 100, 3, 100.1, 5));
    t.send(aLimit('b1', 'BUY', '1', '100'));
    t.sim.onMarket(aQuote(2, 99.9, 4, 100.1, 5));
    t.sim.onMarket(aTrade(3, 100, 3, 'SELL'));
    expect(fillLines(t)).toEqual([]);
    t.sim.onMarket(aTrade(4, 100, 0.4, 'SELL'));
    expect(fillLines(t)).toEqual(['b1 BUY 0.4@100 MAKER']);
  });

  it('explains a shrink shown by a book the same way', () => {
    const t = aSim({ fillModel: 'queue' });
    const asks: [number, number][] = [[100.1, 5]];
    t.sim.onMarket(
      aBook(
        1,
        [
          [100, 3],
          [99.9, 4],
        ],
        asks,
      ),
    );
    t.send(aLimit('b1', 'BUY', '1', '100'));
    t.sim.onMarket(
      aBook(
        2,
        [
          [100, 1],
          [99.9, 4],
        ],
        asks,
      ),
    );
    t.sim.onMarket(aTrade(3, 100, 2, 'SELL'));
    expect(fillLines(t)).toEqual([]);
  });

  it('does not let the print of a locked book move the queue the display already moved', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 100, 3, 100.1, 5));
    t.send(aLimit('b1', 'BUY', '1', '100'));
    // locked at 100: the 2 offered go to the 3 ahead of us (1 left)
    t.sim.onMarket(aQuote(2, 100, 3, 100, 2));
    // the print of that same meeting moves nobody again
    t.sim.onMarket(aTrade(3, 100, 2, 'SELL'));
    expect(fillLines(t)).toEqual([]);
  });

  it('fills from a print through our price whatever went before', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 100, 3, 100.1, 5));
    t.send(aLimit('b1', 'BUY', '1', '100'));
    t.sim.onMarket(aQuote(2, 100, 1, 100.1, 5));
    t.sim.onMarket(aTrade(3, 99.9, 0.5, 'SELL'));
    expect(fillLines(t)).toEqual(['b1 BUY 0.5@100 MAKER']);
  });

  it('a shrink seen at the old price does not eat the prints at the price an amendment moved the order to', () => {
    const t = aSim({ fillModel: 'queue' });
    const asks: [number, number][] = [[100.1, 5]];
    t.sim.onMarket(
      aBook(
        1,
        [
          [100, 3],
          [99.9, 4],
        ],
        asks,
      ),
    );
    t.send(aLimit('b1', 'BUY', '1', '100'));
    t.sim.onMarket(
      aBook(
        2,
        [
          [100, 1],
          [99.9, 4],
        ],
        asks,
      ),
    );
    t.send({ kind: 'modifyOrder', ref: 'm', target: 'b1', sym: BTC, price: D('99.9') });
    t.sim.advanceTo(3);
    t.sim.onMarket(aBook(4, [[99.9, 4]], asks));
    t.sim.onMarket(aTrade(5, 99.9, 5, 'SELL'));
    expect(fillLines(t)).toEqual(['b1 BUY 1@99.9 MAKER']);
  });
});
