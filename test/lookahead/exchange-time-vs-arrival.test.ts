import { describe, expect, it } from 'vitest';
import type { MarketTradeEvent } from '../../core/model/index.ts';
import { aLimit, aQuote, aSim, BTC, fillLines } from '../kit/sim-builders.ts';

const leg = (fixedMs: number) => ({ fixedMs, jitterMs: 0 });

describe('sim venue: a print the venue made before an order reached it', () => {
  it('does not fill a limit that arrived after the print happened on the venue (recorded 30 ms late)', () => {
    const t = aSim({ latency: { orderEntry: leg(20), marketData: leg(0), userData: leg(0) } });
    t.sim.onMarket(aQuote(1_000, 99.9, 5, 100.1, 5));
    // Sent at 1000 (on that quote): reaches the venue at 1020.
    t.send(aLimit('b', 'BUY', '1', '100'));
    t.sim.advanceTo(1_020);
    // A SELL print at 99.5 the venue stamped at 1005 (ts), received by the recorder at 1030.
    const print: MarketTradeEvent = {
      kind: 'trade',
      sym: BTC,
      ts: 1_005,
      recvTs: 1_030,
      tradeId: 'x',
      price: 99.5,
      qty: 1,
      side: 'SELL',
    };
    t.sim.onMarket(print);
    // Hand-computed: the print happened at venue time 1005, 15 ms before the order was there (1020):
    // the order could not have traded with it. Keel fills it at 100 (maker).
    expect(fillLines(t)).toEqual([]);
  });
});
