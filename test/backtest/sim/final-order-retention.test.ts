import { describe, expect, it } from 'vitest';
import { aLimit, aQuote, aSim, BTC } from '../../kit/sim-builders.ts';

/** The sim keeps this many final orders whole (RETAIN_FINAL_ORDERS in backtest/sim/final-order-retention.ts). */
const RETAINED = 10_000;

describe('sim venue: final orders beyond the retention bound', () => {
  it('forgets the oldest final order but still refuses its reference (406010) and calls it final (401058)', async () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 99, 5, 100, 5));
    // An IOC bid below the ask cannot fill: each order is cancelled at once, so it is final.
    for (let i = 0; i <= RETAINED; i++) t.send(aLimit(`r${i}`, 'BUY', '1', '90', { timeInForce: 'IOC' }));
    t.sim.advanceTo(1);
    expect(t.of('order').filter((e) => e.order.orderState === 'CANCELLED')).toHaveLength(RETAINED + 1);

    expect(await t.sim.lookupOrder(BTC, 'r0')).toBeUndefined();
    expect((await t.sim.lookupOrder(BTC, 'r1'))?.orderState).toBe('CANCELLED');

    t.send(aLimit('r0', 'BUY', '1', '100'));
    t.send({ kind: 'cancelOrder', ref: 'c0', target: 'r0', sym: BTC });
    t.send({ kind: 'cancelOrder', ref: 'c1', target: 'never', sym: BTC });
    t.sim.advanceTo(2);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([
      ['r0', 406010],
      ['c0', 401058],
      ['c1', 401018],
    ]);
    expect(t.of('order').filter((e) => e.order.clientOrderId === 'r0')).toHaveLength(2);
  });
});
