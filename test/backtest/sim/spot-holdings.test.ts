import { describe, expect, it } from 'vitest';
import type { LoanOptions } from '../../../backtest/sim/index.ts';
import { D, type Intent } from '../../../core/model/index.ts';
import { anEthSpot, anInstrument } from '../../kit/instrument-builders.ts';
import { aMarket, aQuote, aSim, asApproved, aTrade, BTC, type SimUnderTest } from '../../kit/sim-builders.ts';

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

const HOUR = 3_600_000;
/** ETH lent at 87.6 % a year: 0.0001 ETH per ETH and hour. */
const ETH_LOANS: LoanOptions = {
  assets: { 'OKX:ETH': { annualRate: D('0.876'), userQuota: D('100'), pool: D('100') } },
};
const loan = (kind: 'borrow' | 'repay', ref: string, amount: string): Intent => ({
  kind,
  ref,
  exchange: 'OKX',
  coin: 'ETH',
  amount: D(amount),
});
/** What the end-of-run close sends for the ETH holding (`backtest/runner/end-of-run-close.ts`). */
const endOfRunClose: Intent = {
  kind: 'closePosition',
  ref: `bt-end0-close-${ETH}-NONE`,
  sym: ETH,
  positionSide: 'NONE',
};

async function holdings(t: SimUnderTest): Promise<string[]> {
  return (await t.sim.snapshot()).positions.map((p) => `${p.sym} ${p.positionQty.toFixed()}`);
}

describe('sim venue: a spot holding follows the coin a loan charges its interest in', () => {
  it('takes the interest out of the holding, so a buy-back of principal and interest leaves what the balance holds, and the end-of-run close sells exactly that (hand-computed)', async () => {
    const t = aSim({ instruments: [ethSpot], startingBalances: { USDT: D('1000') }, loans: ETH_LOANS });
    t.sim.onMarket(aTrade(0, 100, 100, 'BUY', ETH));
    // borrow 5 ETH and sell them at 100, fee 0.5: USDT 1499.5, ETH 0, holding -5
    t.send(loan('borrow', 'b', '5'), spot('s', 'SELL', '5'));
    t.sim.advanceTo(1);
    // three hours of interest, 5 x 0.0001 each, charged in ETH: the balance owes 0.0015 ETH
    t.sim.onMarket(aTrade(3 * HOUR + 1, 120, 100, 'BUY', ETH));
    expect(await balances(t)).toEqual({ USDT: '1499.5', ETH: '-0.0015' });
    expect(await holdings(t)).toEqual([`${ETH} -5.0015`]);
    // buy back principal and interest, the fourth hour's too (the repay comes 1 ms into it and pays
    // it), 5.002, one lot over: 5.003 at 120 = 600.36, fee 0.60036; USDT 1499.5 - 600.36 - 0.60036
    // = 898.53964, ETH -0.0015 + 5.003 - 0.0005 - 5 repaid = 0.001
    t.send(spot('bb', 'BUY', '5.003'), loan('repay', 'r', '5'));
    t.sim.advanceTo(3 * HOUR + 2);
    expect(await balances(t)).toEqual({ USDT: '898.53964', ETH: '0.001' });
    expect(await holdings(t)).toEqual([`${ETH} 0.001`]);
    // the end-of-run close sells the 0.001 held at 120 = 0.12, fee 0.00012
    t.sim.submitEndOfRunClose(asApproved(endOfRunClose));
    t.sim.advanceTo(3 * HOUR + 3);
    const close = t.of('execution').at(-1)?.execution;
    expect([close?.clientOrderId, close?.side, close?.quantity.toFixed(), close?.price.toFixed()]).toEqual([
      endOfRunClose.ref,
      'SELL',
      '0.001',
      '120',
    ]);
    expect(t.of('order').filter((e) => e.order.orderState === 'REJECTED')).toEqual([]);
    expect(await balances(t)).toEqual({ USDT: '898.65952', ETH: '0' });
    expect(await holdings(t)).toEqual([]);
    expect(t.sim.statement().map((f) => `${f.type} ${f.coin} ${f.amount.toFixed()} ${f.ts}`)).toEqual([
      'BORROW ETH 5 0',
      `DEDUCT_INTEREST ETH -0.0005 ${HOUR}`,
      `DEDUCT_INTEREST ETH -0.0005 ${2 * HOUR}`,
      `DEDUCT_INTEREST ETH -0.0005 ${3 * HOUR}`,
      `DEDUCT_INTEREST ETH -0.0005 ${3 * HOUR + 1}`,
      `REPAY ETH -5 ${3 * HOUR + 1}`,
    ]);
  });

  it('reports each interest charge on the Positions channel, at the average price the holding had', async () => {
    const t = aSim({ instruments: [ethSpot], startingBalances: { USDT: D('1000') }, loans: ETH_LOANS });
    t.sim.onMarket(aTrade(0, 100, 100, 'BUY', ETH));
    t.send(loan('borrow', 'b', '5'), spot('s', 'SELL', '5'));
    t.sim.advanceTo(1);
    t.sim.onMarket(aTrade(HOUR + 1, 150, 100, 'BUY', ETH));
    const last = t.of('position').at(-1)?.position;
    expect([last?.positionQty.toFixed(), last?.avgPrice.toFixed(), last?.updateAt]).toEqual([
      '-5.0005',
      '100',
      HOUR,
    ]);
  });

  it('shows the interest on coins borrowed and kept as a short holding from the mark, which the end-of-run close buys back', async () => {
    const t = aSim({ instruments: [ethSpot], startingBalances: { USDT: D('1000') }, loans: ETH_LOANS });
    t.sim.onMarket(aTrade(0, 100, 100, 'BUY', ETH));
    t.send(loan('borrow', 'b', '1'));
    t.sim.advanceTo(1);
    // one hour of interest on 1 ETH: 0.0001 ETH, taken from a flat holding at the mark 100
    t.sim.onMarket(aTrade(HOUR + 1, 110, 100, 'BUY', ETH));
    const [holding] = (await t.sim.snapshot()).positions;
    expect([holding?.positionQty.toFixed(), holding?.avgPrice.toFixed()]).toEqual(['-0.0001', '100']);
    // the close buys the 0.0001 back at 110 (0.011, fee 0.000011): ETH 1 again, as much as the loan
    t.sim.submitEndOfRunClose(asApproved(endOfRunClose));
    t.sim.advanceTo(HOUR + 2);
    expect(await balances(t)).toEqual({ USDT: '999.988989', ETH: '1' });
    expect(await holdings(t)).toEqual([]);
  });

  it('takes the interest from the LONG leg first in BOTH mode, as a SELL would', async () => {
    const t = aSim({
      instruments: [ethSpot],
      startingBalances: { USDT: D('1000') },
      loans: ETH_LOANS,
      positionMode: 'BOTH',
    });
    t.sim.onMarket(aTrade(0, 100, 100, 'BUY', ETH));
    t.send(loan('borrow', 'b', '1'), aMarket('l', 'BUY', '2', { sym: ETH, positionSide: 'LONG' }));
    t.sim.advanceTo(1);
    t.sim.onMarket(aTrade(HOUR + 1, 100, 100, 'BUY', ETH));
    const legs = (await t.sim.snapshot()).positions.map(
      (p) => `${p.positionSide} ${p.positionQty.toFixed()}@${p.avgPrice.toFixed()}`,
    );
    expect(legs).toEqual(['LONG 1.9999@100']);
    expect((await balances(t)).ETH).toBe('2.9999');
  });

  it('leaves the holding alone when the borrowed coin has no spot instrument (a USDT loan)', async () => {
    const usdtLoans: LoanOptions = {
      assets: { 'OKX:USDT': { annualRate: D('0.0876'), userQuota: D('10000'), pool: D('10000') } },
    };
    const t = aSim({ instruments: [ethSpot], startingBalances: { USDT: D('1000') }, loans: usdtLoans });
    t.sim.onMarket(aTrade(0, 100, 100, 'BUY', ETH));
    t.send(
      { kind: 'borrow', ref: 'b', exchange: 'OKX', coin: 'USDT', amount: D('500') },
      spot('l', 'BUY', '10'),
    );
    t.sim.advanceTo(1);
    t.sim.onMarket(aTrade(2 * HOUR + 1, 100, 100, 'BUY', ETH));
    // 500 x 0.00001 an hour, twice, in USDT: the ETH holding is what was bought
    expect(await holdings(t)).toEqual([`${ETH} 10`]);
    expect((await balances(t)).ETH).toBe('10');
  });
});
