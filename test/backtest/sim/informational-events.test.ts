import { describe, expect, it } from 'vitest';
import type { MarketEvent } from '../../../core/model/index.ts';
import { aLimit, aMarket, aQuote, aSim, BTC } from '../../kit/sim-builders.ts';

const informational = (ts: number, price: number): MarketEvent[] => [
  {
    kind: 'ticker',
    sym: BTC,
    ts,
    recvTs: ts,
    last: price,
    bid: price,
    ask: price,
    high24h: price,
    low24h: price,
    volume24h: 5,
  },
  { kind: 'indexPrice', sym: BTC, ts, recvTs: ts, indexPrice: price },
  { kind: 'openInterest', sym: BTC, ts, recvTs: ts, openInterest: 3 },
];

describe('sim venue: ticker, index-price and open-interest events', () => {
  it('neither fill resting orders nor give market orders a price, but move virtual time', () => {
    const t = aSim();
    t.send(aLimit('bid', 'BUY', '1', '99'));
    t.sim.advanceTo(1);
    // Prices far through the resting bid: only a quote, book or trade may fill it.
    for (const event of informational(10, 50)) t.sim.onMarket(event);
    t.send(aMarket('m', 'BUY', '1'));
    for (const event of informational(20, 50)) t.sim.onMarket(event);
    expect(t.sim.now()).toBe(20);
    expect(t.of('execution')).toEqual([]);
    t.sim.onMarket(aQuote(30, 98.9, 1, 99, 1));
    expect(
      t
        .of('execution')
        .map((e) => e.execution.clientOrderId)
        .sort(),
    ).toEqual(['bid', 'm']);
  });
});
