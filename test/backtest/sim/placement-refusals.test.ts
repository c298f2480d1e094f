import { describe, expect, it } from 'vitest';
import { aLimit, aSim } from '../../kit/sim-builders.ts';

describe('sim venue: an order refused on arrival', () => {
  it('is reported once as a REJECTED order in backtests and leaves its clientOrderId free for a corrected retry', async () => {
    const t = aSim();
    t.send(aLimit('fix', 'BUY', '0.01', '100'), aLimit('fix', 'BUY', '1', '100'));
    t.sim.advanceTo(1);
    expect(t.of('order').map((e) => [e.order.clientOrderId, e.order.orderState])).toEqual([
      ['fix', 'REJECTED'],
      ['fix', 'NEW'],
    ]);
    expect(t.of('commandRejected')).toEqual([]);
    const found = await t.sim.lookupOrder('BINANCE_PERP_BTC_USDT', 'fix');
    expect(found?.orderState).toBe('NEW');
  });

  it('is only a commandRejected with the venue code when placementRefusals is commandRejected (the paper venue)', async () => {
    const t = aSim({ placementRefusals: 'commandRejected' });
    t.send(aLimit('fix', 'BUY', '0.01', '100'));
    t.sim.advanceTo(1);
    expect(t.of('order')).toEqual([]);
    expect(t.of('commandRejected').map((e) => [e.ref, e.intentKind, e.code, e.message])).toEqual([
      ['fix', 'placeOrder', 400001, '400001 bad parameters: notional is below minNotional 5'],
    ]);
    expect(await t.sim.lookupOrder('BINANCE_PERP_BTC_USDT', 'fix')).toBeUndefined();
    t.send(aLimit('fix', 'BUY', '1', '100'));
    t.sim.advanceTo(2);
    expect(t.of('order').map((e) => [e.order.clientOrderId, e.order.orderState])).toEqual([['fix', 'NEW']]);
  });
});
