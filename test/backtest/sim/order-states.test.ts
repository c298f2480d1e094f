import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import {
  aBar,
  aLimit,
  aMarket,
  aQuote,
  aSim,
  aTrade,
  BTC,
  type SimUnderTest,
} from '../../kit/sim-builders.ts';

/** Each Orders update of one order as `action state`, in order. */
function updatesOf(t: SimUnderTest, ref: string): string[] {
  return t
    .of('order')
    .filter((e) => e.order.clientOrderId === ref)
    .map((e) => `${e.order.action} ${e.order.orderState}`);
}

describe('sim venue: order states, as the live venue reports them', () => {
  it('acknowledges a resting limit NEW, then reports it OPEN once it rests on the book', async () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 5, 100, 5));
    t.send(aLimit('b', 'BUY', '1', '99'));
    t.sim.advanceTo(2);
    expect(t.of('order').map((e) => [e.order.action, e.order.orderState, e.order.updateAt])).toEqual([
      ['PLACE', 'NEW', 1],
      ['PLACE', 'OPEN', 1],
    ]);
    expect((await t.sim.lookupOrder(BTC, 'b'))?.orderState).toBe('OPEN');
    expect((await t.sim.snapshot()).openOrders.map((o) => [o.clientOrderId, o.orderState])).toEqual([
      ['b', 'OPEN'],
    ]);
  });

  it('never shows OPEN for an order that fills wholly on arrival: market, IOC, marketable GTC limit', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 5, 100, 5));
    t.send(
      aMarket('m', 'BUY', '1'),
      aLimit('i', 'BUY', '1', '100', { timeInForce: 'IOC' }),
      aLimit('g', 'BUY', '1', '100.5'),
    );
    t.sim.advanceTo(2);
    for (const ref of ['m', 'i', 'g']) expect(updatesOf(t, ref)).toEqual(['PLACE NEW', 'FILL FILLED']);
  });

  it('never shows OPEN for an IOC or FOK whose remainder is cancelled, nor for a rejected order', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 5, 100, 5));
    t.send(
      aLimit('ioc', 'BUY', '1', '99', { timeInForce: 'IOC' }),
      aLimit('fok', 'BUY', '10', '100', { timeInForce: 'FOK' }),
      aLimit('gtx', 'BUY', '1', '100', { timeInForce: 'GTX' }),
    );
    t.sim.advanceTo(2);
    expect(updatesOf(t, 'ioc')).toEqual(['PLACE NEW', 'CANCEL_COMPLETED CANCELLED']);
    expect(updatesOf(t, 'fok')).toEqual(['PLACE NEW', 'CANCEL_COMPLETED CANCELLED']);
    expect(updatesOf(t, 'gtx')).toEqual(['REJECT REJECTED']);
  });

  it('rests a limit that filled in part on arrival as PARTIALLY_FILLED, never OPEN', async () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 5, 100, 1));
    t.send(aLimit('b', 'BUY', '3', '100'));
    t.sim.advanceTo(2);
    expect(updatesOf(t, 'b')).toEqual(['PLACE NEW', 'FILL PARTIALLY_FILLED']);
    expect((await t.sim.snapshot()).openOrders.map((o) => o.orderState)).toEqual(['PARTIALLY_FILLED']);
  });

  it('moves a resting order OPEN -> PARTIALLY_FILLED -> FILLED as the market trades through it', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 5, 100, 5));
    t.send(aLimit('b', 'BUY', '2', '99.5'));
    t.sim.onMarket(aTrade(2, 99.4, 0.5, 'SELL'));
    t.sim.onMarket(aTrade(3, 99.4, 5, 'SELL'));
    expect(updatesOf(t, 'b')).toEqual(['PLACE NEW', 'PLACE OPEN', 'FILL PARTIALLY_FILLED', 'FILL FILLED']);
    expect(t.of('execution').map((e) => `${e.execution.quantity} ${e.execution.execType}`)).toEqual([
      '0.5 MAKER',
      '1.5 MAKER',
    ]);
  });

  it('cancels a resting order from OPEN when the cancel arrives', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 5, 100, 5));
    t.send(aLimit('b', 'BUY', '1', '99'));
    t.sim.advanceTo(2);
    t.send({ kind: 'cancelOrder', ref: 'c', target: 'b', sym: BTC });
    t.sim.advanceTo(3);
    expect(updatesOf(t, 'b')).toEqual(['PLACE NEW', 'PLACE OPEN', 'CANCEL_COMPLETED CANCELLED']);
    // zero latency: the cancel sent at 2 arrives at 2
    expect(t.of('order').at(-1)?.order).toMatchObject({ cancelType: 'USER', updateAt: 2 });
  });

  it("keeps an order NEW while it waits for its sym's first price, and reports OPEN when that price lets it rest", () => {
    const t = aSim();
    t.send(aLimit('early', 'BUY', '1', '99'));
    t.sim.advanceTo(5);
    expect(updatesOf(t, 'early')).toEqual(['PLACE NEW']);
    t.sim.onMarket(aQuote(10, 99.9, 5, 100, 5));
    expect(t.of('order').map((e) => [e.order.orderState, e.order.updateAt])).toEqual([
      ['NEW', 0],
      ['OPEN', 10],
    ]);
  });

  it('keeps a released conditional order NEW while it waits for a first price, says it was released, then rests it OPEN', () => {
    const t = aSim();
    t.send(aLimit('t', 'BUY', '1', '99', { condition: { code: 'TIME', timeToSend: '1969-12-31 19:00:01' } }));
    t.sim.advanceTo(1_500);
    expect(t.of('order').map((e) => [e.order.orderState, e.order.updateAt, e.order.actionMsg])).toEqual([
      ['NEW', 0, undefined],
      ['NEW', 1_000, 'TIME order sent at 1969-12-31 19:00:01'],
    ]);
    t.sim.onMarket(aQuote(2_000, 99.9, 5, 100, 5));
    expect(updatesOf(t, 't')).toEqual(['PLACE NEW', 'PLACE NEW', 'PLACE OPEN']);
  });

  it('rests a released conditional limit OPEN, and fills a released conditional market order without OPEN', () => {
    const t = aSim();
    t.sim.onMarket(aTrade(1, 100, 5, 'BUY'));
    t.send(
      aLimit('lim', 'BUY', '1', '95', { condition: { code: 'DT', triggerPrice: D('99') } }),
      aMarket('mkt', 'BUY', '1', { condition: { code: 'DT', triggerPrice: D('99') } }),
    );
    t.sim.onMarket(aTrade(2, 98.9, 5, 'SELL'));
    expect(updatesOf(t, 'lim')).toEqual(['PLACE NEW', 'PLACE OPEN']);
    expect(updatesOf(t, 'mkt')).toEqual(['PLACE NEW', 'FILL FILLED']);
  });

  it('on bars, rests a limit OPEN at once and fills it from OPEN when a bar reaches it', () => {
    const t = aSim({ fillModel: 'bar' });
    t.sim.onMarket(aBar(60_000, 100, 101, 99, 100));
    t.send(aLimit('dip', 'BUY', '1', '98'), aMarket('now', 'BUY', '1'));
    t.sim.advanceTo(60_000);
    expect(updatesOf(t, 'dip')).toEqual(['PLACE NEW', 'PLACE OPEN']);
    // a market order on bars waits for the next open: NEW, not resting
    expect(updatesOf(t, 'now')).toEqual(['PLACE NEW']);
    t.sim.onMarket(aBar(120_000, 100, 100.5, 97, 99));
    expect(updatesOf(t, 'dip')).toEqual(['PLACE NEW', 'PLACE OPEN', 'FILL FILLED']);
    expect(updatesOf(t, 'now')).toEqual(['PLACE NEW', 'FILL FILLED']);
  });
});
