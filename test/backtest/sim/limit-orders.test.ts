import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aLimit, aQuote, aSim, aTrade } from '../../kit/sim-builders.ts';

const DAY = 86_400_000;

describe('sim venue: limit orders', () => {
  it('rests a GTC buy and, under the through model, fills it only when trades go through its price, limited by traded size', () => {
    const t = aSim({ fillModel: 'through' });
    t.send(aLimit('b1', 'BUY', '1', '100'));
    t.sim.onMarket(aQuote(1, 99.9, 5, 100.1, 5));
    t.sim.onMarket(aTrade(2, 100, 3, 'SELL'));
    expect(t.of('execution')).toHaveLength(0);
    t.sim.onMarket(aTrade(3, 99.9, 0.4, 'SELL'));
    t.sim.onMarket(aTrade(4, 99.8, 5, 'SELL'));
    const fills = t.of('execution').map((e) => e.execution);
    expect(fills.map((f) => [f.quantity.toFixed(), f.price.toFixed(), f.execType, f.fee.toFixed()])).toEqual([
      ['0.4', '100', 'MAKER', '0.008'],
      ['0.6', '100', 'MAKER', '0.012'],
    ]);
    const last = t.of('order').at(-1)?.order;
    expect(last?.orderState).toBe('FILLED');
    expect(last?.executedAvgPrice.toFixed()).toBe('100');
    expect(t.of('asset').at(-1)?.asset.balance.toFixed()).toBe('9999.98');
  });

  it('fills at the touch under the touch model, limited by the displayed size', () => {
    const t = aSim({ fillModel: 'touch' });
    t.sim.onMarket(aQuote(1, 99.9, 5, 100.1, 5));
    t.send(aLimit('b1', 'BUY', '1', '100'));
    t.sim.onMarket(aQuote(2, 99.9, 5, 100, 0.25));
    t.sim.onMarket(aQuote(3, 99.9, 5, 100, 4));
    expect(t.of('execution').map((e) => e.execution.quantity.toFixed())).toEqual(['0.25', '0.75']);
  });

  it('takes the displayed size of a marketable GTC limit at the ask and rests the remainder', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100.4, 5, 100.5, 0.3));
    t.send(aLimit('b1', 'BUY', '1', '101'));
    t.sim.onMarket(aQuote(2, 100.4, 5, 101.5, 1));
    const [fill] = t.of('execution').map((e) => e.execution);
    // taker fee 0.3 x 100.5 x 5 bps = 0.015075
    expect([fill?.quantity.toFixed(), fill?.price.toFixed(), fill?.execType, fill?.fee.toFixed()]).toEqual([
      '0.3',
      '100.5',
      'TAKER',
      '0.015075',
    ]);
    expect(t.of('order').at(-1)?.order.orderState).toBe('PARTIALLY_FILLED');
    t.sim.onMarket(aTrade(3, 100.9, 1, 'SELL'));
    expect(t.of('execution').at(-1)?.execution).toMatchObject({ execType: 'MAKER' });
    expect(t.of('execution').at(-1)?.execution.quantity.toFixed()).toBe('0.7');
  });

  it('fills what it can of an IOC order and cancels the rest', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100.4, 5, 100.5, 0.3));
    t.send(aLimit('i1', 'BUY', '1', '101', { timeInForce: 'IOC' }));
    t.sim.onMarket(aQuote(2, 100.4, 5, 100.5, 0.3));
    expect(t.of('execution').map((e) => e.execution.quantity.toFixed())).toEqual(['0.3']);
    expect(t.of('order').at(-1)?.order).toMatchObject({ orderState: 'CANCELLED', cancelType: 'IOC' });
  });

  it('treats FAK like IOC', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100.4, 5, 100.5, 0.3));
    t.send(aLimit('i1', 'BUY', '1', '101', { timeInForce: 'FAK' }));
    t.sim.advanceTo(2);
    expect(t.of('order').at(-1)?.order).toMatchObject({ orderState: 'CANCELLED', cancelType: 'FAK' });
  });

  it('kills a FOK order that the displayed size cannot fill entirely, and fills one it can', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100.4, 5, 100.5, 0.3));
    t.send(aLimit('f1', 'BUY', '1', '101', { timeInForce: 'FOK' }));
    t.sim.onMarket(aQuote(2, 100.4, 5, 100.5, 2));
    expect(t.of('execution')).toHaveLength(0);
    expect(t.of('order').at(-1)?.order).toMatchObject({
      clientOrderId: 'f1',
      orderState: 'CANCELLED',
      cancelType: 'FOK',
    });
    t.send(aLimit('f2', 'BUY', '1', '101', { timeInForce: 'FOK' }));
    t.sim.advanceTo(3);
    expect(
      t.of('execution').map((e) => [e.execution.quantity.toFixed(), e.execution.price.toFixed()]),
    ).toEqual([['1', '100.5']]);
  });

  it('rejects a post-only (GTX) order that would take, and rests one that would not', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100.4, 5, 100.5, 1));
    t.send(
      aLimit('p1', 'BUY', '1', '100.5', { timeInForce: 'GTX' }),
      aLimit('p2', 'BUY', '1', '100.4', { timeInForce: 'GTX' }),
    );
    t.sim.advanceTo(2);
    const [p1, p2, p2rests] = t.of('order').map((e) => e.order);
    expect(p1?.orderState).toBe('REJECTED');
    expect(p1?.reason).toMatch(/^400001 /);
    expect(p2?.orderState).toBe('NEW');
    expect([p2rests?.clientOrderId, p2rests?.orderState]).toEqual(['p2', 'OPEN']);
  });

  it('still expires a DAY order after a GTD order without expiryDate was rejected', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1000, 99, 5, 101, 5));
    t.send(
      aLimit('bad', 'BUY', '1', '100', { timeInForce: 'GTD' }),
      aLimit('d1', 'BUY', '1', '100', { timeInForce: 'DAY' }),
    );
    t.sim.onMarket(aQuote(DAY + 5, 99, 5, 101, 5));
    expect(t.of('order').map((e) => [e.order.clientOrderId, e.order.orderState, e.order.action])).toEqual([
      ['bad', 'REJECTED', 'REJECT'],
      ['d1', 'NEW', 'PLACE'],
      ['d1', 'OPEN', 'PLACE'],
      ['d1', 'CANCELLED', 'EXPIRE'],
    ]);
  });

  it('expires a DAY order at the next 00:00 UTC and a GTD order after its expiry date', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1000, 99, 5, 101, 5));
    t.send(
      aLimit('d1', 'BUY', '1', '100', { timeInForce: 'DAY' }),
      aLimit('g1', 'BUY', '1', '100', { timeInForce: 'GTD', expiryDate: '1970-01-02' }),
    );
    t.sim.onMarket(aQuote(DAY - 1, 99, 5, 101, 5));
    expect(t.of('order').filter((e) => e.order.orderState === 'CANCELLED')).toHaveLength(0);
    t.sim.onMarket(aQuote(DAY, 99, 5, 101, 5));
    expect(t.of('order').at(-1)?.order).toMatchObject({
      clientOrderId: 'd1',
      orderState: 'CANCELLED',
      action: 'EXPIRE',
    });
    t.sim.onMarket(aQuote(2 * DAY + 5, 99, 5, 101, 5));
    expect(t.of('order').at(-1)?.order).toMatchObject({
      clientOrderId: 'g1',
      orderState: 'CANCELLED',
      action: 'EXPIRE',
    });
  });

  it('rejects with 400001 a GTD order whose expiry date has passed when it arrives: it never shows NEW, OPEN or a fill', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(DAY + 1000, 99, 5, 101, 5));
    // 1970-01-01 ended at DAY; 1970-01-02 is still running at DAY + 1000
    t.send(
      aLimit('late-take', 'BUY', '1', '101', { timeInForce: 'GTD', expiryDate: '1970-01-01' }),
      aLimit('late-rest', 'BUY', '1', '99', { timeInForce: 'GTD', expiryDate: '1970-01-01' }),
      aLimit('live', 'BUY', '1', '100', { timeInForce: 'GTD', expiryDate: '1970-01-02' }),
    );
    t.sim.advanceTo(DAY + 1001);
    const expired =
      '400001 bad parameters: GTD expiryDate 1970-01-01 ended at 1970-01-02T00:00:00.000Z, before the order arrived';
    expect(
      t.of('order').map((e) => [e.order.clientOrderId, e.order.orderState, e.order.action, e.order.reason]),
    ).toEqual([
      ['late-take', 'REJECTED', 'REJECT', expired],
      ['late-rest', 'REJECTED', 'REJECT', expired],
      ['live', 'NEW', 'PLACE', undefined],
      ['live', 'OPEN', 'PLACE', undefined],
    ]);
    expect(t.of('execution')).toEqual([]);
  });

  it('modifies a resting order: a new price that crosses takes liquidity at once', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99, 5, 101, 5));
    t.send(aLimit('b1', 'BUY', '1', '100'));
    t.send({ kind: 'modifyOrder', ref: 'm1', target: 'b1', sym: 'BINANCE_PERP_BTC_USDT', price: D('101') });
    t.sim.advanceTo(2);
    expect(t.of('order').map((e) => [e.order.action, e.order.orderState])).toEqual([
      ['PLACE', 'NEW'],
      ['PLACE', 'OPEN'],
      ['AMEND_COMPLETED', 'OPEN'],
      ['FILL', 'FILLED'],
    ]);
    expect(t.of('execution')[0]?.execution.price.toFixed()).toBe('101');
  });

  it('refuses (400001) to move a post-only (GTX) order to a price that would take, and keeps it as it was', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 98.9, 50, 100, 50));
    t.send(aLimit('g', 'BUY', '1', '99', { timeInForce: 'GTX' }));
    // ask 100: a BUY at 101 would take it; a BUY at 99.5 still rests below it
    t.send({ kind: 'modifyOrder', ref: 'm1', target: 'g', sym: 'BINANCE_PERP_BTC_USDT', price: D('101') });
    t.sim.onMarket(aQuote(2, 98.9, 50, 100, 50));
    expect(t.of('commandRejected').map((e) => [e.ref, e.code, e.message])).toEqual([
      ['m1', 400001, '400001 bad parameters: post-only (GTX) order would take liquidity at 101'],
    ]);
    t.send({ kind: 'modifyOrder', ref: 'm2', target: 'g', sym: 'BINANCE_PERP_BTC_USDT', price: D('99.5') });
    t.sim.onMarket(aQuote(3, 98.9, 50, 100, 50));
    expect(t.of('execution')).toEqual([]);
    expect(
      t.of('order').map((e) => [e.order.action, e.order.limitPrice.toFixed(), e.order.orderState]),
    ).toEqual([
      ['PLACE', '99', 'NEW'],
      ['PLACE', '99', 'OPEN'],
      ['AMEND_COMPLETED', '99.5', 'OPEN'],
    ]);
  });
});
