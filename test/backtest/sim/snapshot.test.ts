import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aLimit, aMarket, aQuote, aSim, BTC } from '../../kit/sim-builders.ts';

describe('sim venue: queries', () => {
  it('answers lookupOrder by clientOrderId and sym, undefined for an order it never saw', async () => {
    const t = aSim();
    t.send(aLimit('b1', 'BUY', '1', '90'));
    t.sim.advanceTo(1);
    expect((await t.sim.lookupOrder(BTC, 'b1'))?.orderState).toBe('NEW');
    expect(await t.sim.lookupOrder(BTC, 'nope')).toBeUndefined();
    expect(await t.sim.lookupOrder('BINANCE_PERP_ETH_USDT', 'b1')).toBeUndefined();
  });

  it('snapshots open orders, algo orders, positions, assets and the account', async () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 99.9, 10, 100, 10));
    t.send(
      aLimit('rest', 'BUY', '1', '90'),
      aMarket('m', 'BUY', '2', { sl: { triggerPrice: D('95'), triggerType: 'LastPrice', price: D('0') } }),
    );
    t.sim.advanceTo(1);
    const snapshot = await t.sim.snapshot();
    expect(snapshot.ts).toBe(1);
    expect(snapshot.openOrders.map((o) => o.clientOrderId)).toEqual(['rest']);
    expect(snapshot.openAlgoOrders.map((a) => a.clientAlgoOrderId)).toEqual(['m-sl']);
    expect(snapshot.positions.map((p) => p.positionQty.toFixed())).toEqual(['2']);
    // 10000 - taker fee 2 x 100 x 5 bps
    expect(snapshot.assets.map((a) => [a.coin, a.balance.toFixed()])).toEqual([['USDT', '9999.9']]);
    expect(snapshot.account?.accountStatus).toBe('NORMAL');
  });

  it('names its fill model and latency for the report', () => {
    const t = aSim({ fillModel: { name: 'queue', slippageTicks: 1 } });
    expect(t.sim.fillModelName).toBe('queue');
    expect(t.sim.assumptions.fillModel).toMatch(/^queue \(partial fills/);
    expect(t.sim.assumptions.latency).toBe('order entry 0ms, market data 0ms, user data 0ms');
  });
});
