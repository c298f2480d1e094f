import { describe, expect, it } from 'vitest';
import { aLimit, aQuote, aSim, aTrade } from '../../kit/sim-builders.ts';

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
    t.sim.onMarket(aTrade(3, 100, 0.7, 'SELL'));
    // queue ahead 0.5, so 0.2 of the 0.7 reaches us
    expect(t.of('execution').map((e) => e.execution.quantity.toFixed())).toEqual(['0.2']);
  });

  it('has no queue when it improves on the best bid', () => {
    const t = aSim({ fillModel: 'queue' });
    t.sim.onMarket(aQuote(1, 100, 3, 100.2, 5));
    t.send(aLimit('b1', 'BUY', '1', '100.1'));
    t.sim.onMarket(aTrade(2, 100.1, 0.3, 'SELL'));
    expect(t.of('execution').map((e) => e.execution.quantity.toFixed())).toEqual(['0.3']);
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
