import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { anEthSpot, anInstrument } from '../../kit/instrument-builders.ts';
import { aMarket, aQuote, aSim, BTC, type SimUnderTest } from '../../kit/sim-builders.ts';

const ETH = 'OKX_SPOT_ETH_USDT';
/** ETH/USDT spot: leverage 1, maker 8 bps, taker 10 bps, tick 0.01. */
const ethSpot = anEthSpot({ tickSize: D('0.01') });

function aSpotSim(usdt = '10000'): SimUnderTest {
  return aSim({ instruments: [ethSpot, anInstrument(BTC)], startingBalances: { USDT: D(usdt) } });
}

const spot = (ref: string, side: 'BUY' | 'SELL', qty: string) => aMarket(ref, side, qty, { sym: ETH });

async function balances(t: SimUnderTest): Promise<Record<string, string>> {
  const { assets } = await t.sim.snapshot();
  return Object.fromEntries(assets.map((a) => [a.coin, a.balance.toFixed()]));
}

describe('sim venue: spot trades move asset balances', () => {
  it('books a spot buy then sell as USDT into ETH and back, the fee paid in USDT (hand-computed)', async () => {
    const t = aSpotSim();
    t.sim.onMarket(aQuote(0, 2000, 5, 2001, 5, ETH));
    t.send(spot('b', 'BUY', '1'));
    t.sim.advanceTo(1);
    // bought 1 ETH at the ask 2001, taker fee 2001 x 0.001 = 2.001: USDT 10000 - 2001 - 2.001
    expect(await balances(t)).toEqual({ USDT: '7996.999', ETH: '1' });
    // the last asset reports say the same to the strategy
    const reported = Object.fromEntries(t.of('asset').map((e) => [e.asset.coin, e.asset.balance.toFixed()]));
    expect(reported).toEqual({ USDT: '7996.999', ETH: '1' });

    t.sim.onMarket(aQuote(2, 2100, 5, 2101, 5, ETH));
    t.send(spot('s', 'SELL', '1'));
    t.sim.advanceTo(3);
    // sold 1 ETH at the bid 2100, fee 2.1: USDT 7996.999 + 2100 - 2.1; ETH back to 0
    expect(await balances(t)).toEqual({ USDT: '10094.899', ETH: '0' });
    const fills = t
      .of('execution')
      .map((e) => [
        e.execution.side,
        e.execution.price.toFixed(),
        e.execution.fee.toFixed(),
        e.execution.rpnl.toFixed(),
      ]);
    expect(fills).toEqual([
      ['BUY', '2001', '2.001', '0'],
      ['SELL', '2100', '2.1', '99'],
    ]);
    expect(t.sim.ledger().realizedPnl.toFixed()).toBe('99');
    expect(t.sim.equity().toFixed()).toBe('10094.899');
  });

  it('reports a spot holding without margin, maintenance or liquidation price', async () => {
    const t = aSpotSim();
    t.sim.onMarket(aQuote(0, 2000, 5, 2001, 5, ETH));
    t.send(spot('b', 'BUY', '2'));
    t.sim.advanceTo(1);
    const [holding] = (await t.sim.snapshot()).positions;
    expect(holding).toMatchObject({ sym: ETH, leverage: D(1) });
    expect(holding?.positionQty.toFixed()).toBe('2');
    expect(holding?.positionMargin.toFixed()).toBe('0');
    expect(holding?.positionMM.toFixed()).toBe('0');
    expect(holding?.liqPrice.toFixed()).toBe('0');
    // no ADL rank on spot: nothing is deleveraged
    expect(t.of('adlRank')).toEqual([]);
  });

  it('counts spot holdings in equity at the mark, as collateral that locks no margin', async () => {
    const t = aSpotSim();
    t.sim.onMarket(aQuote(0, 2000, 5, 2001, 5, ETH));
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100, BTC));
    t.send(spot('b', 'BUY', '4.9'));
    t.sim.advanceTo(1);
    // USDT 10000 - 9804.9 - 9.8049 = 185.2951; ETH 4.9 at the mid 2000.5 = 9802.45
    t.sim.onMarket(aQuote(2, 2200, 5, 2201, 5, ETH));
    // ETH 4.9 at the mid 2200.5 = 10782.45
    expect(t.sim.equity().toFixed()).toBe(D('185.2951').plus('10782.45').toFixed());
    const account = (await t.sim.snapshot()).account;
    expect(account?.availableMargin.toFixed()).toBe(account?.equity.toFixed());
    // a BTC perp order needing 500 margin (5000 at leverage 10) is funded by the ETH held
    t.send(aMarket('p', 'BUY', '50'));
    t.sim.advanceTo(3);
    expect(
      t
        .of('order')
        .filter((e) => e.order.clientOrderId === 'p')
        .map((e) => e.order.orderState),
    ).toEqual(['NEW', 'FILLED']);
  });

  it("republishes a perpetual's liqPrice when the price of the spot coin held moves", () => {
    const btc = anInstrument(BTC, { maxMarketSize: D('1000') });
    const t = aSim({ instruments: [ethSpot, btc], startingBalances: { USDT: D('10000') } });
    t.sim.onMarket(aQuote(0, 2000, 5, 2001, 5, ETH));
    t.sim.onMarket(aQuote(0, 99.9, 500, 100, 500, BTC));
    // long 200 BTC at 100 on about 10 000 of equity: liquidated near 50
    t.send(spot('b', 'BUY', '4'), aMarket('p', 'BUY', '200'));
    t.sim.advanceTo(1);
    const btcPositions = () => t.of('position').filter((e) => e.position.sym === BTC);
    const before = btcPositions().length;
    const liqBefore = btcPositions().at(-1)?.position.liqPrice;
    // ETH halves: equity falls by ~4000, so BTC may fall less (to about 70) before liquidation
    t.sim.onMarket(aQuote(2, 1000, 5, 1001, 5, ETH));
    expect(btcPositions().length).toBe(before + 1);
    expect(
      btcPositions()
        .at(-1)
        ?.position.liqPrice.gt(liqBefore ?? D(0)),
    ).toBe(true);
  });

  it('settles MARGIN instruments in assets too, with no automatic borrowing', async () => {
    const MARGIN = 'BINANCE_MARGIN_ETH_USDT';
    const t = aSim({ instruments: [anInstrument(MARGIN, { defaultLeverage: D(1) })] });
    t.sim.onMarket(aQuote(0, 2000, 5, 2001, 5, MARGIN));
    t.send(aMarket('s', 'SELL', '1', { sym: MARGIN }), aMarket('b', 'BUY', '1', { sym: MARGIN }));
    t.sim.advanceTo(1);
    expect(t.of('order').map((e) => `${e.order.clientOrderId} ${e.order.orderState}`)).toEqual([
      's REJECTED',
      'b NEW',
      'b FILLED',
    ]);
    // bought at 2001 with the taker fee of 5 bps (1.0005)
    expect(await balances(t)).toEqual({ USDT: '7997.9995', ETH: '1' });
  });
});
