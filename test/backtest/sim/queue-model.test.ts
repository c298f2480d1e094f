import { describe, expect, it } from 'vitest';
import { aBook, aLimit, aQuote, aSim, aTrade, fillLines } from '../../kit/sim-builders.ts';

describe('sim venue: queue fill model', () => {
  it('queues behind the displayed size at its price; trades at the price eat the queue first', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 100, 3, 100.1, 5));
    t.send(aLimit('b1', 'BUY', '1', '100'));
    t.sim.onMarket(aTrade(2, 100, 2, 'SELL'));
    expect(t.of('execution')).toHaveLength(0);
    // buyer-initiated trades at our price do not touch the bid queue
    t.sim.onMarket(aTrade(3, 100, 5, 'BUY'));
    expect(t.of('execution')).toHaveLength(0);
    // 1 left ahead: a 1.5 sell fills 0.5 of ours
    t.sim.onMarket(aTrade(4, 100, 1.5, 'SELL'));
    expect(t.of('execution').map((e) => e.execution.quantity.toFixed())).toEqual(['0.5']);
    // a trade through the price fills the rest
    t.sim.onMarket(aTrade(5, 99.9, 2, 'SELL'));
    expect(t.of('execution').map((e) => e.execution.quantity.toFixed())).toEqual(['0.5', '0.5']);
  });

  it('shrinks the queue when the displayed size at its price drops below it', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 100, 3, 100.1, 5));
    t.send(aLimit('b1', 'BUY', '1', '100'));
    t.sim.onMarket(aQuote(2, 100, 0.5, 100.1, 5));
    // locked at 100 with 0.7 offered: queue ahead 0.5, so 0.2 of the 0.7 reaches us
    t.sim.onMarket(aQuote(3, 100, 0.5, 100, 0.7));
    expect(t.of('execution').map((e) => e.execution.quantity.toFixed())).toEqual(['0.2']);
  });

  it('has no queue when it improves on the best bid', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 100, 3, 100.2, 5));
    t.send(aLimit('b1', 'BUY', '1', '100.1'));
    t.sim.onMarket(aTrade(2, 100.1, 0.3, 'SELL'));
    expect(t.of('execution').map((e) => e.execution.quantity.toFixed())).toEqual(['0.3']);
  });

  it('on a locked quote (ask at our bid, our level still displayed) gives the ask to the queue ahead first', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 100, 3, 100.1, 5));
    t.send(aLimit('b1', 'BUY', '1', '100'));
    // locked at 100: the 2 offered at our price go to the 3 ahead of us (1 left), none to us
    t.sim.onMarket(aQuote(2, 100, 3, 100, 2));
    expect(fillLines(t)).toEqual([]);
    // the same display again is no new liquidity: the queue stays at 1
    t.sim.onMarket(aQuote(3, 100, 3, 100, 2));
    expect(fillLines(t)).toEqual([]);
    // a new size 1.5: 1 to the queue, 0.5 to us
    t.sim.onMarket(aQuote(4, 100, 3, 100, 1.5));
    expect(fillLines(t)).toEqual(['b1 BUY 0.5@100 MAKER']);
    // an ordinary touch (our level shown empty, the ask at our price) fills the rest
    t.sim.onMarket(aQuote(5, 99.9, 4, 100, 2));
    expect(fillLines(t)).toEqual(['b1 BUY 0.5@100 MAKER', 'b1 BUY 0.5@100 MAKER']);
  });

  it('on a crossed book gives the opposite size to the displayed bids at and above our price first', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 100, 3, 100.1, 5));
    t.send(aLimit('b1', 'BUY', '1', '100'));
    // crossed: bids 100.1 x1 and 100 x3 (ahead of us) against an ask 99.9 x2: all 2 go ahead of us
    t.sim.onMarket(
      aBook(
        2,
        [
          [100.1, 1],
          [100, 3],
        ],
        [[99.9, 2]],
      ),
    );
    expect(fillLines(t)).toEqual([]);
    // asks 99.9 x2 (taken already) and 100 x4 (new): 1 + 3 ahead are 4, of which 2 were served, so
    // 2 of the 4 at 100 go ahead and 1 fills us (qty 1), at our limit
    t.sim.onMarket(
      aBook(
        3,
        [
          [100.1, 1],
          [100, 3],
        ],
        [
          [99.9, 2],
          [100, 4],
        ],
      ),
    );
    expect(fillLines(t)).toEqual(['b1 BUY 1@100 MAKER']);
  });

  it('still fills a resting order at the touch of an ordinary quote, with no size displayed ahead of it', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 100, 3, 100.1, 5));
    t.send(aLimit('b1', 'BUY', '1', '100'));
    // bid falls to 99.9 and the ask to 100: the queue at 100 went, the ask fills us
    t.sim.onMarket(aQuote(2, 99.9, 3, 100, 0.4));
    expect(fillLines(t)).toEqual(['b1 BUY 0.4@100 MAKER']);
  });

  it('moves every one of our orders at the traded price up its queue, not only the first', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 100, 3, 100.1, 5));
    t.send(aLimit('b1', 'BUY', '1', '100'), aLimit('b2', 'BUY', '1', '100'));
    // both joined behind 3: a 3.5 sell fills 0.5 of b1, and eats b2's queue too
    t.sim.onMarket(aTrade(2, 100, 3.5, 'SELL'));
    expect(t.of('execution').map((e) => [e.execution.clientOrderId, e.execution.quantity.toFixed()])).toEqual(
      [['b1', '0.5']],
    );
    // b1 needs 0.5 more; the next 1.0 fills it and leaves 0.5 for b2
    t.sim.onMarket(aTrade(3, 100, 1, 'SELL'));
    expect(t.of('execution').map((e) => [e.execution.clientOrderId, e.execution.quantity.toFixed()])).toEqual(
      [
        ['b1', '0.5'],
        ['b1', '0.5'],
        ['b2', '0.5'],
      ],
    );
  });
});
