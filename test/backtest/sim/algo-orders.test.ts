import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimit, aMark, aMarket, anAlgo, aQuote, aSim, aTrade } from '../../kit/sim-builders.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

describe('sim venue: algo orders', () => {
  it('fires a GTE last-price trigger into a market order', () => {
    const t = aSim();
    t.send(anAlgo('a1', {}));
    t.sim.onMarket(aTrade(1, 104.9, 1, 'BUY'));
    expect(t.of('algoOrder').map((e) => e.algoOrder.state)).toEqual(['NEW']);
    t.sim.onMarket(aTrade(2, 105.2, 1, 'BUY'));
    expect(t.of('algoOrder').at(-1)?.algoOrder.state).toBe('TRIGGERED');
    expect(t.of('execution').map((e) => [e.execution.clientOrderId, e.execution.price.toFixed()])).toEqual([
      ['a1-trig', '105.2'],
    ]);
  });

  it('takes a price of -0 as 0 (market), not as a negative price, when placing and replacing', () => {
    const t = aSim();
    t.send(anAlgo('a1', { price: D('-0') }));
    t.sim.onMarket(aTrade(1, 104.9, 1, 'BUY'));
    expect(t.of('algoOrder').map((e) => e.algoOrder.state)).toEqual(['NEW']);
    t.send({
      kind: 'replaceAlgoOrder',
      ref: 'r1',
      target: 'a1',
      sym: BTC,
      price: D('-0'),
      triggerPrice: D('105.1'),
    });
    t.sim.onMarket(aTrade(2, 104.9, 1, 'BUY'));
    expect(t.of('commandRejected')).toEqual([]);
    t.sim.onMarket(aTrade(3, 105.2, 1, 'BUY'));
    expect(t.of('execution').map((e) => e.execution.price.toFixed())).toEqual(['105.2']);
  });

  it('refuses a replace that changes nothing with 400001, as a modify of an order is, leaving it as it was', () => {
    const t = aSim();
    t.send(anAlgo('a1', { price: D('104') }));
    t.sim.advanceTo(1);
    const before = t.of('algoOrder').length;
    t.send(
      { kind: 'replaceAlgoOrder', ref: 'none', target: 'a1', sym: BTC },
      { kind: 'replaceAlgoOrder', ref: 'same', target: 'a1', sym: BTC, price: D('104.0'), qty: D('1') },
    );
    t.sim.advanceTo(2);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code, e.message])).toEqual([
      ['none', 400001, '400001 bad parameters: modify changes nothing on algo order a1'],
      ['same', 400001, '400001 bad parameters: modify changes nothing on algo order a1'],
    ]);
    expect(t.of('algoOrder')).toHaveLength(before);
  });

  it('fires an LTE mark-price trigger on the mark, not on trades', () => {
    const t = aSim();
    t.sim.onMarket(aMark(1, 100));
    t.send(
      anAlgo('a1', {
        side: 'SELL',
        conditionType: 'LTE',
        triggerType: 'MarkPrice',
        triggerPrice: D('95'),
        price: D('94'),
      }),
    );
    t.sim.onMarket(aTrade(2, 94, 1, 'SELL'));
    expect(t.of('algoOrder').at(-1)?.algoOrder.state).toBe('NEW');
    t.sim.onMarket(aMark(3, 95));
    expect(t.of('algoOrder').at(-1)?.algoOrder.state).toBe('TRIGGERED');
    // a limit SELL at 94 rests; the last trade was at 94 so it would not fill until traded through
    expect(t.of('order').at(-1)?.order).toMatchObject({ orderType: 'LIMIT', clientOrderId: 'a1-trig' });
  });

  it('replaces and cancels algo orders, refusing unknown (401018) and final ones (401058)', () => {
    const t = aSim();
    t.send(anAlgo('a1', {}), anAlgo('a2', {}));
    t.send({ kind: 'replaceAlgoOrder', ref: 'r1', target: 'a1', sym: BTC, triggerPrice: D('110') });
    t.sim.onMarket(aTrade(1, 106, 1, 'BUY'));
    expect(
      t
        .of('algoOrder')
        .filter((e) => e.algoOrder.state === 'TRIGGERED')
        .map((e) => e.algoOrder.clientAlgoOrderId),
    ).toEqual(['a2']);
    t.send({ kind: 'cancelAlgoOrder', ref: 'c1', target: 'a1', sym: BTC });
    t.send({ kind: 'cancelAlgoOrder', ref: 'c2', target: 'a2', sym: BTC });
    t.send({ kind: 'cancelAlgoOrder', ref: 'c3', target: 'nope', sym: BTC });
    t.sim.advanceTo(2);
    expect(t.of('algoOrder').at(-1)?.algoOrder).toMatchObject({
      clientAlgoOrderId: 'a1',
      state: 'CANCELLED',
    });
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([
      ['c2', 401058],
      ['c3', 401018],
    ]);
  });

  it('cancels all open algo orders of a sym', () => {
    const t = aSim();
    t.send(anAlgo('a1', {}), anAlgo('a2', { triggerPrice: D('120') }));
    t.send({ kind: 'cancelAllAlgoOrders', ref: 'x', sym: BTC });
    t.sim.advanceTo(1);
    expect(t.of('algoOrder').filter((e) => e.algoOrder.state === 'CANCELLED')).toHaveLength(2);
  });

  it('attaches tp and sl to a filled parent as a linked reduce-only pair; the tp fires and the sl is cancelled', () => {
    const t = aSim();
    // the last trade's size (2) is what a limit can take on a trades-only recording
    t.sim.onMarket(aTrade(1, 100, 2, 'BUY'));
    t.send(
      aLimit('p1', 'BUY', '2', '100.5', {
        tp: { triggerPrice: D('110'), triggerType: 'LastPrice', price: D('0') },
        sl: { triggerPrice: D('90'), triggerType: 'MarkPrice', price: D('0') },
      }),
    );
    t.sim.advanceTo(2);
    const attached = t.of('algoOrder').map((e) => e.algoOrder);
    expect(
      attached.map((a) => [a.clientAlgoOrderId, a.side, a.conditionType, a.qty.toFixed(), a.reduceOnly]),
    ).toEqual([
      ['p1-tp', 'SELL', 'GTE', '2', true],
      ['p1-sl', 'SELL', 'LTE', '2', true],
    ]);
    // each names its parent, so the kernel gives it to the parent's strategy
    const parentId = t.of('order').find((e) => e.order.clientOrderId === 'p1')?.order.orderId;
    expect(attached.map((a) => a.attachedOrderId)).toEqual([parentId, parentId]);
    t.sim.onMarket(aTrade(3, 110, 2, 'BUY'));
    const close = t.of('execution').at(-1)?.execution;
    // bought 2 at 100 (the last trade, taker), sold 2 at 110: +20
    expect([close?.side, close?.price.toFixed(), close?.rpnl.toFixed()]).toEqual(['SELL', '110', '20']);
    expect(t.of('algoOrder').at(-1)?.algoOrder).toMatchObject({
      clientAlgoOrderId: 'p1-sl',
      state: 'CANCELLED',
    });
  });

  it('mirrors the attachments of a filled SELL parent: a BUY tp falling to its trigger (LTE) and a BUY sl rising (GTE)', () => {
    const t = aSim();
    t.sim.onMarket(aTrade(1, 100, 2, 'SELL'));
    t.send(
      aLimit('p2', 'SELL', '2', '99.5', {
        tp: { triggerPrice: D('90'), triggerType: 'LastPrice', price: D('0') },
        sl: { triggerPrice: D('110'), triggerType: 'MarkPrice', price: D('111') },
      }),
    );
    t.sim.advanceTo(2);
    const attached = t.of('algoOrder').map((e) => e.algoOrder);
    expect(
      attached.map((a) => [
        a.clientAlgoOrderId,
        a.side,
        a.conditionType,
        a.triggerType,
        a.triggerPrice.toFixed(),
        a.price.toFixed(),
        a.qty.toFixed(),
        a.reduceOnly,
      ]),
    ).toEqual([
      ['p2-tp', 'BUY', 'LTE', 'LastPrice', '90', '0', '2', true],
      ['p2-sl', 'BUY', 'GTE', 'MarkPrice', '110', '111', '2', true],
    ]);
  });

  it('rejects an algo order on an unknown sym with 400009 and a duplicate reference with 406010', () => {
    const t = aSim();
    t.send(anAlgo('a1', { sym: 'BINANCE_PERP_DOGE_USDT' }), anAlgo('a2', {}), anAlgo('a2', {}));
    t.send(aMarket('m', 'BUY', '1'));
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => e.code)).toEqual([400009, 406010]);
  });

  it("names the algo order on its triggered order's updates, as the Orders channel does", () => {
    const t = aSim();
    t.send(anAlgo('a1', {}));
    t.sim.onMarket(aTrade(1, 105.2, 1, 'BUY'));
    const algoOrderId = t.of('algoOrder').at(-1)?.algoOrder.algoOrderId;
    const child = t.of('order').map((e) => e.order);
    expect(child.length).toBeGreaterThan(0);
    expect(child.every((order) => order.algoOrderId === algoOrderId)).toBe(true);
  });
});

describe('sim venue: algo order parameters and margin', () => {
  it('refuses with 400001 an algo order a plain order with the same parameters could not be', () => {
    // BTC: lot 0.001, tick 0.1, minNotional 5, maxLimitSize 1000, maxMarketSize 100 (anInstrument)
    const t = aSim();
    t.send(
      anAlgo('lot', { qty: D('0.0005'), price: D('101') }),
      anAlgo('tick', { price: D('101.05') }),
      anAlgo('notional', { qty: D('0.01'), price: D('101') }), // 0.01 x 101 = 1.01 < 5
      anAlgo('maxLimit', { qty: D('1001'), price: D('101') }),
      anAlgo('maxMarket', { qty: D('101'), price: D('0') }),
      anAlgo('side', { positionSide: 'LONG' }), // NET mode takes NONE
      anAlgo('fine', { qty: D('100'), price: D('0') }),
    );
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code, e.message])).toEqual([
      ['lot', 400001, '400001 bad parameters: qty must be a positive multiple of 0.001'],
      ['tick', 400001, '400001 bad parameters: a limit order needs a positive price on the tick 0.1'],
      ['notional', 400001, '400001 bad parameters: notional is below minNotional 5'],
      ['maxLimit', 400001, '400001 bad parameters: qty exceeds maxLimitSize 1000'],
      ['maxMarket', 400001, '400001 bad parameters: qty exceeds maxMarketSize 100'],
      ['side', 400001, '400001 bad parameters: positionSide must be NONE in NET mode'],
    ]);
    expect(t.of('algoOrder').map((e) => e.algoOrder.clientAlgoOrderId)).toEqual(['fine']);
  });

  it('refuses an algo order below the minimum size, and one without LONG / SHORT in BOTH mode', () => {
    const t = aSim({ instruments: [anInstrument(BTC, { minSize: D('0.01') })], positionMode: 'BOTH' });
    t.send(
      anAlgo('small', { qty: D('0.005'), positionSide: 'LONG' }),
      anAlgo('none', { positionSide: 'NONE' }),
      anAlgo('long', { positionSide: 'LONG' }),
    );
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code, e.message])).toEqual([
      ['small', 400001, '400001 bad parameters: qty is below the minimum size 0.01'],
      ['none', 400001, '400001 bad parameters: positionSide LONG or SHORT is required in BOTH mode'],
    ]);
    expect(t.of('algoOrder').map((e) => e.algoOrder.clientAlgoOrderId)).toEqual(['long']);
  });

  it('refuses a replace that would leave the algo order off the lot or the tick, and keeps it as it was', () => {
    const t = aSim();
    t.send(anAlgo('a1', { price: D('104') }));
    t.send(
      { kind: 'replaceAlgoOrder', ref: 'r1', target: 'a1', sym: BTC, qty: D('1.0005') },
      { kind: 'replaceAlgoOrder', ref: 'r2', target: 'a1', sym: BTC, price: D('104.05') },
      // a market algo (price 0) may carry up to maxMarketSize 100, a limit one up to 1000
      { kind: 'replaceAlgoOrder', ref: 'r3', target: 'a1', sym: BTC, price: D('0'), qty: D('200') },
    );
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([
      ['r1', 400001],
      ['r2', 400001],
      ['r3', 400001],
    ]);
    expect(t.of('algoOrder').map((e) => [e.algoOrder.qty.toFixed(), e.algoOrder.price.toFixed()])).toEqual([
      ['1', '104'],
    ]);
  });

  it('fails an algo order whose child the margin cannot carry: the child is rejected with 401023 and nothing fills', () => {
    // leverage 1, 10 000 USDT: a BUY of 300 at limit 102 needs 300 x 102 / 1 = 30 600 of margin
    // and its taker fee, 30 600 x 0.0005 = 15.30
    const t = aSim({ leverage: { [BTC]: D(1) } });
    t.sim.onMarket(aQuote(1, 99.9, 500, 100, 500));
    t.send(anAlgo('big', { qty: D('300'), triggerPrice: D('101'), price: D('102') }));
    t.sim.onMarket(aQuote(2, 100.9, 500, 101, 500));
    t.sim.onMarket(aTrade(3, 101, 1, 'BUY'));
    const algos = t.of('algoOrder').map((e) => e.algoOrder);
    expect(algos.map((a) => a.state)).toEqual(['NEW', 'FAILED']);
    const child = t.of('order').map((e) => e.order);
    expect(child.map((o) => [o.orderId, o.orderState, o.action])).toEqual([
      [algos[1]?.orderId, 'REJECTED', 'REJECT'],
    ]);
    expect(child[0]?.reason).toBe(
      '401023 insufficient margin: needs 30615.30 (margin 30600.00 + fee 15.30), available 10000.00',
    );
    expect(t.of('execution')).toEqual([]);
    expect(t.sim.equity().toFixed()).toBe('10000');
  });

  it('fires a reduce-only algo order even when the margin is short: its child needs none', () => {
    // leverage 10: BUY 990 at the ask 100 needs 9 900 of margin and pays 990 x 100 x 0.0005 = 49.5
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 1000, 100, 1000));
    t.send(aLimit('long', 'BUY', '990', '100'));
    t.send(
      anAlgo('stop', {
        side: 'SELL',
        conditionType: 'LTE',
        triggerType: 'MarkPrice',
        triggerPrice: D('99.5'),
        qty: D('990'),
        price: D('99.8'),
        reduceOnly: true,
      }),
    );
    // mark 99.9: equity 10 000 - 49.5 - 990 x 0.1 = 9 851.5 < IM 990 x 99.9 / 10 = 9 890.1
    t.sim.onMarket(aMark(2, 99.9));
    expect(t.sim.availableMarginFloor()).toBeLessThan(0);
    // mark 99.5: equity 9 455.5 < IM 9 850.5, above MM 990 x 99.5 x 0.005 = 492.5 (no liquidation)
    t.sim.onMarket(aMark(3, 99.5));
    expect(t.of('algoOrder').at(-1)?.algoOrder.state).toBe('TRIGGERED');
    // the child SELL 990 at limit 99.8 takes the bid 99.9 and closes the position
    expect(t.of('execution').map((e) => [e.execution.clientOrderId, e.execution.quantity.toFixed()])).toEqual(
      [
        ['long', '990'],
        ['stop-trig', '990'],
      ],
    );
  });
});
