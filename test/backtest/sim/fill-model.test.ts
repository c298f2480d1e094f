import { describe, expect, it } from 'vitest';
import { aBook, aLimit, aQuote, aSim, aTrade, fillLines } from '../../kit/sim-builders.ts';

describe('queue fill model: the queue ahead of a resting order', () => {
  it('empties when a quote shows the level gone (our bid is now the best): an ask at our price fills us', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 100, 5, 100.1, 3));
    // joins the bid 100 x5: queue ahead 5
    t.send(aLimit('b', 'BUY', '5', '100'));
    t.sim.onMarket(aQuote(2, 100, 5, 100.1, 3));
    // the best bid drops to 99.9: nobody displayed at 100 is left ahead of us, queue 0
    t.sim.onMarket(aQuote(3, 99.9, 4, 100.1, 3));
    // an ask of 3 at 100 meets nobody ahead of us: 3 @100 as maker (with the 5 still ahead, the 3
    // would have gone to them)
    t.sim.onMarket(aQuote(4, 99.9, 4, 100, 3));
    expect(fillLines(t)).toEqual(['b BUY 3@100 MAKER']);
  });

  it('empties when a book shows no size at our price inside its displayed range', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(
      aBook(
        1,
        [
          [100, 5],
          [99.9, 4],
        ],
        [[100.1, 3]],
      ),
    );
    t.send(aLimit('b', 'BUY', '5', '100'));
    t.sim.onMarket(
      aBook(
        2,
        [
          [100, 5],
          [99.9, 4],
        ],
        [[100.1, 3]],
      ),
    );
    // 100 is gone and 99.9 is displayed: the 100 level is known empty, queue 0
    t.sim.onMarket(
      aBook(
        3,
        [
          [99.9, 4],
          [99.8, 4],
        ],
        [[100.1, 3]],
      ),
    );
    // an ask of 3 at 100 -> 3 of our 5, nobody being ahead
    t.sim.onMarket(
      aBook(
        4,
        [
          [99.9, 4],
          [99.8, 4],
        ],
        [[100, 3]],
      ),
    );
    expect(fillLines(t)).toEqual(['b BUY 3@100 MAKER']);
  });

  it('starts at zero for a price between displayed levels: only orders at the same price are ahead', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(
      aBook(
        1,
        [
          [100, 5],
          [99.8, 4],
        ],
        [[100.1, 3]],
      ),
    );
    // nothing is displayed at 99.9: the 100 bids are better priced, not in our queue; queue 0
    t.send(aLimit('b', 'BUY', '2', '99.9'));
    // SELL 3 @99.9 offers 3; our order wants 2 -> fills 2 @99.9, the whole order
    t.sim.onMarket(aTrade(2, 99.9, 3, 'SELL'));
    expect(fillLines(t)).toEqual(['b BUY 2@99.9 MAKER']);
  });

  it('is unknown beyond the displayed depth until a quote shows the level, then it is the displayed size', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 100, 5, 100.1, 3));
    // 99.8 is below the only displayed bid: how much rests there is unknown
    t.send(aLimit('b', 'BUY', '5', '99.8'));
    // a SELL print at our price cannot be shown to reach us: no fill
    t.sim.onMarket(aTrade(2, 99.8, 3, 'SELL'));
    expect(fillLines(t)).toEqual([]);
    // the level shows up with 4: all 4 assumed ahead of us (risk-averse)
    t.sim.onMarket(aQuote(3, 99.8, 4, 99.9, 3));
    // SELL 6 @99.8: 4 eat the queue, 2 reach us
    t.sim.onMarket(aTrade(4, 99.8, 6, 'SELL'));
    expect(fillLines(t)).toEqual(['b BUY 2@99.8 MAKER']);
  });

  it('is unknown on a recording with trades only: prints at our price never fill, prints through it do', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aTrade(1, 100.1, 1, 'BUY'));
    // nothing is displayed on the bid side: the size resting at 100 ahead of us is unknown
    t.send(aLimit('b', 'BUY', '1', '100'));
    // a SELL 0.3 @100 (our price) cannot be shown to reach us: no fill (touch would fill 0.3)
    t.sim.onMarket(aTrade(2, 100, 0.3, 'SELL'));
    expect(fillLines(t)).toEqual([]);
    // a SELL 0.4 @99.9, through our price, fills 0.4 of our 1 @100 as maker, as under `through`
    t.sim.onMarket(aTrade(3, 99.9, 0.4, 'SELL'));
    expect(fillLines(t)).toEqual(['b BUY 0.4@100 MAKER']);
  });

  it('keeps a sell order queue too: the ask level gone from a book above our price empties it', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(
      aBook(
        1,
        [[99.9, 3]],
        [
          [100, 2],
          [100.1, 6],
        ],
      ),
    );
    // joins the ask 100 x2: queue 2
    t.send(aLimit('s', 'SELL', '3', '100'));
    t.sim.onMarket(aBook(2, [[99.9, 3]], [[100.1, 6]]));
    // a bid of 1 at 100: queue 0, 1 of our 3
    t.sim.onMarket(aBook(3, [[100, 1]], [[100.1, 6]]));
    expect(fillLines(t)).toEqual(['s SELL 1@100 MAKER']);
  });
});
