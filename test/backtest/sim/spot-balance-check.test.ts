import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { anEthSpot } from '../../kit/instrument-builders.ts';
import { aLimit, aMarket, aQuote, aSim, type SimUnderTest } from '../../kit/sim-builders.ts';

const ETH = 'OKX_SPOT_ETH_USDT';
const ethSpot = anEthSpot({ tickSize: D('0.01') });

function aSpotSim(balances: Record<string, string> = { USDT: '10000' }): SimUnderTest {
  const startingBalances = Object.fromEntries(Object.entries(balances).map(([coin, v]) => [coin, D(v)]));
  const t = aSim({ instruments: [ethSpot], startingBalances });
  t.sim.onMarket(aQuote(0, 2000, 5, 2001, 5, ETH));
  return t;
}

function statesOf(t: SimUnderTest, ref: string): string[] {
  return t
    .of('order')
    .filter((e) => e.order.clientOrderId === ref)
    .map((e) => e.order.orderState);
}

function reasonOf(t: SimUnderTest, ref: string): string {
  return (
    t.of('order').find((e) => e.order.clientOrderId === ref && e.order.orderState === 'REJECTED')?.order
      .reason ?? ''
  );
}

describe('sim venue: a spot order needs the asset it pays with', () => {
  it('refuses a spot sell of ETH it does not hold with 401023, opening no short', async () => {
    const t = aSpotSim();
    t.send(aMarket('s', 'SELL', '1', { sym: ETH }));
    t.sim.advanceTo(1);
    expect(statesOf(t, 's')).toEqual(['REJECTED']);
    expect(reasonOf(t, 's')).toMatch(/^401023 .*needs 1 ETH, available 0 ETH/);
    expect(t.of('execution')).toEqual([]);
    expect((await t.sim.snapshot()).positions).toEqual([]);
  });

  it('sells ETH given in the starting balances, crediting the USDT proceeds', async () => {
    const t = aSpotSim({ USDT: '0', ETH: '1' });
    t.send(aMarket('s', 'SELL', '1', { sym: ETH }));
    t.sim.advanceTo(1);
    expect(statesOf(t, 's')).toEqual(['NEW', 'FILLED']);
    const { assets } = await t.sim.snapshot();
    // 2000 - fee 2
    expect(Object.fromEntries(assets.map((a) => [a.coin, a.balance.toFixed()]))).toEqual({
      USDT: '1998',
      ETH: '0',
    });
  });

  it('counts the ETH open sell orders freeze: a second sell beyond the rest is refused', async () => {
    const t = aSpotSim({ USDT: '0', ETH: '1' });
    t.send(aLimit('a', 'SELL', '0.6', '2500', { sym: ETH }));
    t.sim.advanceTo(1);
    const eth = (await t.sim.snapshot()).assets.find((a) => a.coin === 'ETH');
    expect([eth?.balance.toFixed(), eth?.frozen.toFixed(), eth?.available.toFixed()]).toEqual([
      '1',
      '0.6',
      '0.4',
    ]);
    t.send(aLimit('b', 'SELL', '0.6', '2500', { sym: ETH }));
    t.sim.advanceTo(2);
    expect(statesOf(t, 'b')).toEqual(['REJECTED']);
    expect(reasonOf(t, 'b')).toMatch(/needs 0\.6 ETH, available 0\.4 ETH/);
    // growing the resting sell past the ETH held is refused too, and the order stays as it was
    t.send({ kind: 'modifyOrder', ref: 'm', target: 'a', sym: ETH, qty: D('1.2') });
    t.sim.advanceTo(3);
    expect(t.of('commandRejected').map((e) => e.code)).toEqual([401023]);
    expect((await t.sim.snapshot()).openOrders.map((o) => o.orderQty.toFixed())).toEqual(['0.6']);
  });

  it('sells short on spot by borrowing ETH first: the loan carries the short and its interest', async () => {
    const loans = {
      assets: { 'OKX:ETH': { annualRate: D('0.0876'), userQuota: D('10'), pool: D('10') } },
      maxBorrowLtv: D('0.5'),
      maintenanceMarginRate: D('0.05'),
    };
    const t = aSim({ instruments: [ethSpot], startingBalances: { USDT: D('10000') }, loans });
    t.sim.onMarket(aQuote(0, 2000, 5, 2001, 5, ETH));
    t.send({ kind: 'borrow', ref: 'b', exchange: 'OKX', coin: 'ETH', amount: D('1') });
    t.send(aMarket('s', 'SELL', '1', { sym: ETH }));
    t.sim.advanceTo(1);
    expect(statesOf(t, 's')).toEqual(['NEW', 'FILLED']);
    const { assets } = await t.sim.snapshot();
    // sold the borrowed ETH at 2000 (fee 2): USDT 11998, ETH 0, 1 ETH owed
    expect(assets.map((a) => [a.coin, a.balance.toFixed(), a.borrow.toFixed()])).toEqual([
      ['USDT', '11998', '0'],
      ['ETH', '0', '1'],
    ]);
    // the price rises to a mid of 2200.5: the short loses 200 against the mid 2000.5 it was valued at
    t.sim.onMarket(aQuote(2, 2200, 5, 2201, 5, ETH));
    expect(t.sim.equity().toFixed()).toBe('9797.5');
  });

  it('refuses a spot buy the USDT cannot pay for, fee included, counting what open buys freeze', () => {
    const t = aSpotSim({ USDT: '3000' });
    t.send(aLimit('a', 'BUY', '1', '1500', { sym: ETH }));
    // 1500 frozen by the resting buy, 1500 left: 1 ETH at 1500 + fee 1.5 does not fit
    t.send(aLimit('b', 'BUY', '1', '1500', { sym: ETH }));
    t.sim.advanceTo(1);
    expect(statesOf(t, 'a')).toEqual(['NEW', 'OPEN']);
    expect(statesOf(t, 'b')).toEqual(['REJECTED']);
    expect(reasonOf(t, 'b')).toMatch(/needs 1501\.5 USDT \(cost 1500 \+ fee 1\.5\), available 1500 USDT/);
  });
});
