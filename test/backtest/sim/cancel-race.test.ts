import { describe, expect, it } from 'vitest';
import { aLimit, aSim, aTrade, BTC } from '../../kit/sim-builders.ts';

const LATENCY = {
  orderEntry: { fixedMs: 10, jitterMs: 0 },
  marketData: { fixedMs: 3, jitterMs: 0 },
};

describe('sim venue: cancel after latency', () => {
  it('lets a fill win when it happens before the cancel arrives, and refuses the cancel with 401058', () => {
    const t = aSim({ latency: LATENCY });
    t.send(aLimit('b1', 'BUY', '1', '100')); // arrives at 10
    t.sim.onMarket(aTrade(12, 100.5, 1, 'SELL'));
    t.send({ kind: 'cancelOrder', ref: 'c1', target: 'b1', sym: BTC }); // sent at 12, arrives at 22
    t.sim.onMarket(aTrade(20, 99.9, 1, 'SELL')); // fills before the cancel arrives
    t.sim.onMarket(aTrade(30, 99.8, 1, 'SELL'));
    expect(t.of('execution').map((e) => e.ts)).toEqual([20]);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code, e.ts])).toEqual([['c1', 401058, 22]]);
  });

  it('cancels when the cancel arrives first; a later trade through the price fills nothing', () => {
    const t = aSim({ latency: LATENCY });
    t.send(aLimit('b1', 'BUY', '1', '100'));
    t.sim.onMarket(aTrade(12, 100.5, 1, 'SELL'));
    t.send({ kind: 'cancelOrder', ref: 'c1', target: 'b1', sym: BTC });
    t.sim.onMarket(aTrade(23, 99.9, 1, 'SELL'));
    expect(t.of('execution')).toHaveLength(0);
    expect(t.of('order').at(-1)?.order).toMatchObject({
      orderState: 'CANCELLED',
      action: 'CANCEL_COMPLETED',
      cancelType: 'USER',
    });
    expect(t.of('order').at(-1)?.ts).toBe(22);
  });

  it('stamps User Data events with venue time and recvTs = ts + user-data latency', () => {
    const t = aSim({ latency: LATENCY });
    t.send(aLimit('b1', 'BUY', '1', '100'));
    t.sim.advanceTo(50);
    expect(t.of('order').map((e) => [e.ts, e.recvTs])).toEqual([[10, 13]]);
  });

  it('draws the same jitter for the same seed', () => {
    const run = () => {
      const t = aSim({
        latency: { orderEntry: { fixedMs: 5, jitterMs: 20 }, marketData: { fixedMs: 1, jitterMs: 4 } },
      });
      for (let i = 0; i < 5; i++) t.send(aLimit(`b${i}`, 'BUY', '1', '100'));
      t.sim.advanceTo(1000);
      return t.of('order').map((e) => [e.ts, e.recvTs]);
    };
    const first = run();
    expect(run()).toEqual(first);
    expect(new Set(first.map(([ts]) => ts)).size).toBeGreaterThan(1);
    // one connection: arrivals never go backwards
    expect(first.map(([ts]) => ts)).toEqual([...first.map(([ts]) => ts)].sort((a, b) => (a ?? 0) - (b ?? 0)));
  });
});
