import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aLimit, aMarket, aQuote, aSim, aTrade } from '../../kit/sim-builders.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

describe('sim venue: conditional orders (PLACE_ORDER conditionCode)', () => {
  it('holds a UT order until the last price rises to its trigger, then sends it', () => {
    const t = aSim();
    t.sim.onMarket(aTrade(1, 100, 1, 'BUY'));
    t.send(aMarket('u1', 'BUY', '1', { condition: { code: 'UT', triggerPrice: D('102') } }));
    t.sim.onMarket(aTrade(2, 101.9, 1, 'BUY'));
    expect(t.of('execution')).toHaveLength(0);
    expect(t.of('order').at(-1)?.order.orderState).toBe('NEW');
    t.sim.onMarket(aTrade(3, 102.1, 1, 'BUY'));
    expect(t.of('execution').map((e) => e.execution.price.toFixed())).toEqual(['102.1']);
  });

  it('holds a DT order until the last price falls to its trigger', () => {
    const t = aSim();
    t.send(aLimit('d1', 'BUY', '1', '98', { condition: { code: 'DT', triggerPrice: D('98.5') } }));
    t.sim.onMarket(aTrade(1, 99, 1, 'SELL'));
    expect(t.of('order').at(-1)?.order.orderState).toBe('NEW');
    t.sim.onMarket(aTrade(2, 98.5, 1, 'SELL'));
    expect(t.of('order').at(-1)?.order).toMatchObject({
      orderState: 'OPEN',
      actionMsg: 'condition DT triggered at 98.5',
    });
    t.sim.onMarket(aTrade(3, 97.9, 1, 'SELL'));
    expect(t.of('execution').map((e) => e.execution.price.toFixed())).toEqual(['98']);
  });

  it('fires a SELL stop-loss (SL) when the price falls to the trigger', () => {
    const t = aSim();
    t.sim.onMarket(aTrade(1, 100, 1, 'BUY'));
    t.send(
      aMarket('b', 'BUY', '1'),
      aMarket('s1', 'SELL', '1', { reduceOnly: true, condition: { code: 'SL', triggerPrice: D('95') } }),
    );
    t.sim.onMarket(aTrade(2, 96, 1, 'SELL'));
    expect(t.of('execution')).toHaveLength(1);
    t.sim.onMarket(aTrade(3, 94.9, 1, 'SELL'));
    const close = t.of('execution')[1]?.execution;
    // bought at 100, sold at 94.9: -5.1
    expect([close?.price.toFixed(), close?.rpnl.toFixed()]).toEqual(['94.9', '-5.1']);
  });

  it('sends an OCO order on whichever trigger comes first (SELL: profit above, stop below)', () => {
    const up = aSim();
    up.sim.onMarket(aTrade(1, 100, 1, 'BUY'));
    up.send(
      aMarket('o1', 'SELL', '1', { condition: { code: 'OCO', triggerPrice: D('105'), stopPrice: D('95') } }),
    );
    up.sim.onMarket(aTrade(2, 105, 1, 'BUY'));
    expect(up.of('execution').map((e) => e.execution.price.toFixed())).toEqual(['105']);

    const down = aSim();
    down.sim.onMarket(aTrade(1, 100, 1, 'BUY'));
    down.send(
      aMarket('o1', 'SELL', '1', { condition: { code: 'OCO', triggerPrice: D('105'), stopPrice: D('95') } }),
    );
    down.sim.onMarket(aTrade(2, 96, 1, 'SELL'));
    expect(down.of('execution')).toHaveLength(0);
    down.sim.onMarket(aTrade(3, 94, 1, 'SELL'));
    expect(down.of('execution').map((e) => e.execution.price.toFixed())).toEqual(['94']);
  });

  it('sends a TIME order at its timeToSend, read as New York time', () => {
    const t = aSim();
    // 19:01 EST on 31 December 1969 is 00:01 UTC on 1 January 1970
    t.send(aMarket('t1', 'BUY', '1', { condition: { code: 'TIME', timeToSend: '1969-12-31 19:01:00' } }));
    t.sim.onMarket(aTrade(59_999, 100, 1, 'BUY'));
    expect(t.of('execution')).toHaveLength(0);
    t.sim.onMarket(aTrade(60_000, 100.2, 1, 'BUY'));
    expect(t.of('execution')).toHaveLength(1);
    // a market order released into a price fills at once: NEW until it fills, never OPEN
    expect(t.of('order').map((e) => [e.ts, e.order.orderState, e.order.actionMsg])).toEqual([
      [0, 'NEW', undefined],
      [60_000, 'FILLED', 'TIME order sent at 1969-12-31 19:01:00'],
    ]);
  });

  it('reads timeToSend in New York daylight time after the spring change and standard time after the autumn one', () => {
    const springForward = Date.UTC(2026, 2, 8, 7); // 03:00 EDT, the moment clocks jump from 02:00 EST
    const fallBack = Date.UTC(2026, 10, 1, 6); // 01:00 EST, the second time New York reads 01:00
    const t = aSim({ startTime: springForward - 120_000 });
    t.send(aMarket('before', 'BUY', '1', { condition: { code: 'TIME', timeToSend: '2026-03-08 01:59:00' } }));
    t.send(aMarket('after', 'BUY', '1', { condition: { code: 'TIME', timeToSend: '2026-03-08 03:01:00' } }));
    t.send(aMarket('autumn', 'BUY', '1', { condition: { code: 'TIME', timeToSend: '2026-11-01 02:00:00' } }));
    for (const ts of [springForward - 60_000, springForward + 60_000, fallBack + 3_600_000]) {
      t.sim.onMarket(aTrade(ts - 1, 100, 5, 'BUY'));
      t.sim.onMarket(aTrade(ts, 100, 5, 'BUY'));
    }
    expect(t.of('execution').map((e) => [e.execution.clientOrderId, e.execution.timestamp])).toEqual([
      ['before', springForward - 60_000],
      ['after', springForward + 60_000],
      ['autumn', fallBack + 3_600_000],
    ]);
  });

  it('holds a HOLD order whatever the price, and releases it when it is modified', () => {
    const t = aSim();
    t.send(aLimit('h1', 'BUY', '1', '100', { condition: { code: 'HOLD' } }));
    t.sim.onMarket(aTrade(1, 90, 1, 'SELL'));
    expect(t.of('execution')).toHaveLength(0);
    t.send({ kind: 'modifyOrder', ref: 'm1', target: 'h1', sym: BTC, price: D('85') });
    t.sim.onMarket(aTrade(2, 86, 1, 'SELL'));
    expect(t.of('order').map((e) => e.order.action)).toEqual(['PLACE', 'AMEND_COMPLETED', 'PLACE']);
    t.sim.onMarket(aTrade(3, 84, 1, 'SELL'));
    expect(t.of('execution').map((e) => [e.execution.price.toFixed(), e.execution.execType])).toEqual([
      ['85', 'MAKER'],
    ]);
  });

  it('releases a HOLD order modified to its own terms: the modification is the signal, not a change', () => {
    const t = aSim();
    t.send(aLimit('h1', 'BUY', '1', '100', { condition: { code: 'HOLD' } }));
    t.send({ kind: 'modifyOrder', ref: 'm1', target: 'h1', sym: BTC, price: D('100') });
    t.sim.onMarket(aTrade(1, 99, 1, 'SELL'));
    expect(t.of('order').map((e) => [e.order.action, e.order.amendType])).toEqual([
      ['PLACE', undefined],
      ['AMEND_COMPLETED', undefined],
      ['PLACE', undefined],
      ['FILL', undefined],
    ]);
    expect(t.of('execution')).toHaveLength(1);
    // Released, the same modification again changes nothing and is refused.
    t.send(aLimit('h2', 'BUY', '1', '90'));
    t.send({ kind: 'modifyOrder', ref: 'm2', target: 'h2', sym: BTC, price: D('90') });
    t.sim.advanceTo(2);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([['m2', 400001]]);
  });

  it('rejects a conditional order that lacks its trigger fields with 400001', () => {
    const t = aSim();
    t.send(aMarket('x1', 'SELL', '1', { condition: { code: 'OCO', triggerPrice: D('105') } }));
    t.send(aMarket('x2', 'SELL', '1', { condition: { code: 'TIME', timeToSend: '2026-13-01 00:00:00' } }));
    t.sim.advanceTo(1);
    expect(t.of('order').map((e) => e.order.reason?.slice(0, 6))).toEqual(['400001', '400001']);
  });

  it('cancels (cancelType GTX) a post-only conditional order released at a price where it would take', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 98.9, 50, 100, 50));
    t.send(
      aLimit('g', 'BUY', '1', '101', {
        timeInForce: 'GTX',
        condition: { code: 'UT', triggerPrice: D('100.5') },
      }),
    );
    // the last trade rises to 100.5 and releases it while the ask is still 100, below its 101
    t.sim.onMarket(aTrade(2, 100.5, 1, 'BUY'));
    expect(t.of('execution')).toEqual([]);
    expect(t.of('order').map((e) => [e.order.action, e.order.orderState, e.order.cancelType])).toEqual([
      ['PLACE', 'NEW', undefined],
      ['CANCEL_COMPLETED', 'CANCELLED', 'GTX'],
    ]);
  });

  it('releases a post-only HOLD order modified to a price where it would not take, and refuses one that would', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 98.9, 50, 100, 50));
    t.send(aLimit('h1', 'BUY', '1', '99', { timeInForce: 'GTX', condition: { code: 'HOLD' } }));
    t.send({ kind: 'modifyOrder', ref: 'm1', target: 'h1', sym: BTC, price: D('100') });
    t.send({ kind: 'modifyOrder', ref: 'm2', target: 'h1', sym: BTC, price: D('99.5') });
    t.sim.onMarket(aQuote(2, 98.9, 50, 100, 50));
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([['m1', 400001]]);
    expect(t.of('execution')).toEqual([]);
    expect(
      t.of('order').map((e) => [e.order.action, e.order.limitPrice.toFixed(), e.order.orderState]),
    ).toEqual([
      ['PLACE', '99', 'NEW'],
      ['AMEND_COMPLETED', '99.5', 'NEW'],
      ['PLACE', '99.5', 'OPEN'],
    ]);
  });
});
