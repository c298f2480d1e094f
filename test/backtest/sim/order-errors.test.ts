import { describe, expect, it } from 'vitest';
import { SIM_ERRORS } from '../../../backtest/sim/index.ts';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimit, aMark, aMarket, aQuote, aSim, BTC, fillLines } from '../../kit/sim-builders.ts';

function rejectedReasons(t: ReturnType<typeof aSim>): string[] {
  return t
    .of('order')
    .filter((e) => e.order.orderState === 'REJECTED')
    .map((e) => e.order.reason ?? '');
}

describe('sim venue: order error codes', () => {
  it('rejects an unknown symbol with 400009', () => {
    const t = aSim();
    t.send(aLimit('x', 'BUY', '1', '100', { sym: 'BINANCE_PERP_DOGE_USDT' }));
    t.sim.advanceTo(1);
    expect(rejectedReasons(t)).toEqual(['400009 the symbol is not supported: BINANCE_PERP_DOGE_USDT']);
  });

  it('rejects bad parameters with 400001 and says which', () => {
    const t = aSim();
    t.send(
      aLimit('a', 'BUY', '1.0005', '100'),
      aLimit('b', 'BUY', '1', '100.05'),
      aLimit('c', 'BUY', '0.01', '100'),
      aLimit('d', 'BUY', '1', '100', { timeInForce: 'GTD' }),
      aLimit('d2', 'BUY', '1', '100', { timeInForce: 'GTD', expiryDate: '2025-02-30' }),
      aLimit('e', 'BUY', '1', '100', { positionSide: 'LONG' }),
      aMarket('f', 'BUY', '101'),
    );
    t.sim.advanceTo(1);
    expect(rejectedReasons(t)).toEqual([
      '400001 bad parameters: qty must be a positive multiple of 0.001',
      '400001 bad parameters: a limit order needs a positive price on the tick 0.1',
      '400001 bad parameters: notional is below minNotional 5',
      '400001 bad parameters: GTD needs expiryDate YYYY-MM-DD, a calendar date',
      '400001 bad parameters: GTD needs expiryDate YYYY-MM-DD, a calendar date',
      '400001 bad parameters: positionSide must be NONE in NET mode',
      '400001 bad parameters: qty exceeds maxMarketSize 100',
    ]);
  });

  it('refuses a duplicate clientOrderId with 406010 without touching the live order', () => {
    const t = aSim();
    t.send(aLimit('a', 'BUY', '1', '100'), aLimit('a', 'BUY', '2', '99'));
    t.sim.advanceTo(1);
    expect(t.of('order').map((e) => e.order.orderState)).toEqual(['NEW']);
    expect(t.of('commandRejected').map((e) => [e.ref, e.intentKind, e.code])).toEqual([
      ['a', 'placeOrder', 406010],
    ]);
  });

  it('refuses to cancel or modify an unknown order (401018) and a final one (401058)', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 99, 5, 100, 5));
    t.send(aMarket('m', 'BUY', '1'));
    t.send({ kind: 'cancelOrder', ref: 'c1', target: 'nope', sym: BTC });
    t.send({ kind: 'cancelOrder', ref: 'c2', target: 'm', sym: BTC });
    t.send({ kind: 'modifyOrder', ref: 'c3', target: 'm', sym: BTC, qty: D('2') });
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => e.code)).toEqual([401018, 401058, 401058]);
  });

  it('rejects a reduce-only order with no position to reduce (401097) and trims one larger than the position', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 99, 5, 100, 5));
    t.send(aLimit('r1', 'SELL', '1', '101', { reduceOnly: true }));
    t.send(aMarket('m', 'BUY', '0.5'));
    t.send(aLimit('r2', 'SELL', '1', '101', { reduceOnly: true }));
    t.sim.advanceTo(1);
    expect(rejectedReasons(t)).toEqual([
      '401097 position quantity is 0: nothing to reduce on BINANCE_PERP_BTC_USDT',
    ]);
    const r2 = t.of('order').find((e) => e.order.clientOrderId === 'r2')?.order;
    expect(r2?.orderQty.toFixed()).toBe('0.5');
    expect(r2?.actionMsg).toMatch(/trimmed/);
  });

  it('rejects an order the margin cannot carry with 401023', () => {
    const t = aSim({ startingBalances: { USDT: D('100') } });
    t.sim.onMarket(aQuote(0, 99, 50, 100, 50));
    // 10 x 99 / leverage 10 = 99 of initial margin + taker fee 990 x 0.0005 = 0.495: fits in 100;
    // one more needs 9.90 + 0.0495 of the 1 left
    t.send(aLimit('ok', 'BUY', '10', '99'), aLimit('no', 'BUY', '1', '99'));
    t.sim.advanceTo(1);
    expect(rejectedReasons(t)).toEqual([
      '401023 insufficient margin: needs 9.95 (margin 9.90 + fee 0.05), available 1.00',
    ]);
  });

  it('refuses with 401023 a modify the margin cannot carry, as placement would, and leaves the order as it was', () => {
    const t = aSim({ startingBalances: { USDT: D('1000') } });
    t.sim.onMarket(aQuote(0, 99.9, 5, 100, 5));
    t.send(aLimit('b', 'BUY', '1', '99'));
    t.sim.advanceTo(1);
    // initial margin = qty x price / leverage 10 on equity 1000 (no fill yet):
    // qty 102 @99 needs 1009.80 > 1000: refused; qty 90 @99 needs 891: accepted
    t.send({ kind: 'modifyOrder', ref: 'big', target: 'b', sym: BTC, qty: D('102') });
    t.sim.advanceTo(2);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([['big', 401023]]);
    expect(t.of('commandRejected')[0]?.message).toMatch(
      /^401023 insufficient margin: order b as modified needs /,
    );
    t.send({ kind: 'modifyOrder', ref: 'ok', target: 'b', sym: BTC, qty: D('90') });
    t.sim.advanceTo(3);
    // then a price raise to 112 needs 90 x 112 / 10 = 1008 > 1000: refused, the price stays 99
    t.send({ kind: 'modifyOrder', ref: 'up', target: 'b', sym: BTC, price: D('112') });
    t.sim.advanceTo(4);
    expect(t.of('commandRejected').map((e) => e.ref)).toEqual(['big', 'up']);
    const amended = t.of('order').filter((e) => e.order.action === 'AMEND_COMPLETED');
    expect(amended.map((e) => [e.order.orderQty.toFixed(), e.order.limitPrice.toFixed()])).toEqual([
      ['90', '99'],
    ]);
    expect(t.of('order').at(-1)?.order.limitPrice.toFixed()).toBe('99');
    expect(fillLines(t)).toEqual([]);
  });

  it('refuses with 400001 a modify that grows qty past maxLimitSize or shrinks the notional under minNotional, as placement would', () => {
    const t = aSim({
      instruments: [anInstrument(BTC, { maxLimitSize: D('10') })],
      startingBalances: { USDT: D('100000') },
    });
    t.sim.onMarket(aQuote(0, 99.9, 5, 100, 5));
    t.send(aLimit('b', 'BUY', '1', '99'));
    t.sim.advanceTo(1);
    // qty 10.001 > maxLimitSize 10; qty 0.05 x 99 = 4.95 < minNotional 5; price 4.9 x 1 = 4.9 < 5
    t.send(
      { kind: 'modifyOrder', ref: 'grow', target: 'b', sym: BTC, qty: D('10.001') },
      { kind: 'modifyOrder', ref: 'shrink', target: 'b', sym: BTC, qty: D('0.05') },
      { kind: 'modifyOrder', ref: 'cheap', target: 'b', sym: BTC, price: D('4.9') },
      { kind: 'modifyOrder', ref: 'edge', target: 'b', sym: BTC, qty: D('10') },
    );
    t.sim.advanceTo(2);
    expect(t.of('commandRejected').map((e) => [e.ref, e.message])).toEqual([
      ['grow', '400001 bad parameters: order b as modified: qty exceeds maxLimitSize 10'],
      ['shrink', '400001 bad parameters: order b as modified: notional is below minNotional 5'],
      ['cheap', '400001 bad parameters: order b as modified: notional is below minNotional 5'],
    ]);
    expect(t.of('commandRejected').map((e) => e.code)).toEqual([400001, 400001, 400001]);
    // the refused amendments left it as it was; the one at exactly maxLimitSize went through
    const amended = t.of('order').filter((e) => e.order.action === 'AMEND_COMPLETED');
    expect(amended.map((e) => [e.order.orderQty.toFixed(), e.order.limitPrice.toFixed()])).toEqual([
      ['10', '99'],
    ]);
  });

  it('refuses with 400001 a modify that changes nothing, and labels an amendment with only what it changed', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 99.9, 5, 100, 5));
    t.send(aLimit('b', 'BUY', '1', '99'));
    t.sim.advanceTo(1);
    t.send(
      { kind: 'modifyOrder', ref: 'same', target: 'b', sym: BTC, price: D('99') },
      { kind: 'modifyOrder', ref: 'sameBoth', target: 'b', sym: BTC, price: D('99.0'), qty: D('1') },
      { kind: 'modifyOrder', ref: 'qty', target: 'b', sym: BTC, price: D('99'), qty: D('2') },
      { kind: 'modifyOrder', ref: 'price', target: 'b', sym: BTC, price: D('98'), qty: D('2') },
    );
    t.sim.advanceTo(2);
    expect(t.of('commandRejected').map((e) => [e.ref, e.message])).toEqual([
      ['same', '400001 bad parameters: modify changes nothing on order b'],
      ['sameBoth', '400001 bad parameters: modify changes nothing on order b'],
    ]);
    const amended = t.of('order').filter((e) => e.order.action === 'AMEND_COMPLETED');
    expect(
      amended.map((e) => [e.order.amendType, e.order.orderQty.toFixed(), e.order.limitPrice.toFixed()]),
    ).toEqual([
      ['QTY', '2', '99'],
      ['PRICE', '2', '98'],
    ]);
  });

  it('accepts a modify needing less margin on an over-committed portfolio, and refuses one needing more', async () => {
    const t = aSim({ startingBalances: { USDT: D('1000') } });
    t.sim.onMarket(aQuote(0, 99.9, 500, 100, 500));
    // initial margin 100 x 99 / 10 = 990 and 0.2 x 40 / 10 = 0.80: 990.80 <= 1000
    t.send(aLimit('b', 'BUY', '100', '99'), aLimit('s', 'BUY', '0.2', '40'));
    t.sim.onMarket(aQuote(10, 98.4, 500, 98.5, 500));
    t.sim.onMarket(aMark(20, 98.5));
    // b filled 100 @99 (maker fee 9900 x 2 bps = 1.98); at mark 98.5 equity = 1000 - 1.98 - 50 =
    // 948.02, initial margin 9850 / 10 + 0.80 = 985.80: available -37.78 (maintenance 49.25, no liquidation)
    expect(fillLines(t)).toEqual(['b BUY 100@99 MAKER']);
    expect((await t.sim.snapshot()).account?.availableMargin.toFixed()).toBe('-37.78');
    // qty 0.15 locks 0.60 instead of 0.80: accepted; qty 0.3 would lock 1.20: refused
    t.send({ kind: 'modifyOrder', ref: 'down', target: 's', sym: BTC, qty: D('0.15') });
    t.send({ kind: 'modifyOrder', ref: 'up', target: 's', sym: BTC, qty: D('0.3') });
    t.sim.advanceTo(21);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([['up', 401023]]);
    const amended = t.of('order').filter((e) => e.order.action === 'AMEND_COMPLETED');
    expect(amended.map((e) => [e.order.clientOrderId, e.order.orderQty.toFixed()])).toEqual([['s', '0.15']]);
  });

  it('blocks a position-mode switch while orders or positions exist (406012) and allows it when flat', () => {
    const t = aSim();
    t.send(aLimit('a', 'BUY', '1', '90'), { kind: 'setPositionMode', ref: 'pm1', positionMode: 'BOTH' });
    t.send(
      { kind: 'cancelOrder', ref: 'c', target: 'a', sym: BTC },
      { kind: 'setPositionMode', ref: 'pm2', positionMode: 'BOTH' },
    );
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([['pm1', 406012]]);
    expect(t.of('account').at(-1)?.account.positionMode).toBe('BOTH');
  });

  it('keeps every code in one table with the message the venue sends', () => {
    expect(SIM_ERRORS.CLOSE_POSITION_REJECTED.code).toBe(401129);
    expect(SIM_ERRORS.ADL_SYM_NOT_SUPPORTED.code).toBe(401011);
    const loanCodes = Object.values(SIM_ERRORS)
      .map((e) => e.code)
      .filter((c) => c >= 406014 && c <= 406023);
    expect(loanCodes).toEqual([
      406014, 406015, 406016, 406017, 406018, 406019, 406020, 406021, 406022, 406023,
    ]);
  });

  it('rejects an order beyond the sym maxNumOrders with 400001', () => {
    const t = aSim({ instruments: [anInstrument(BTC, { maxNumOrders: 2 })] });
    t.send(aLimit('a', 'BUY', '1', '90'), aLimit('b', 'BUY', '1', '91'), aLimit('c', 'BUY', '1', '92'));
    t.sim.advanceTo(1);
    expect(rejectedReasons(t)).toEqual([
      `400001 bad parameters: ${BTC} already has maxNumOrders 2 open orders`,
    ]);
  });
});
