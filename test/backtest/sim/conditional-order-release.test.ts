import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aMarket, aQuote, aSim, aTrade, fillLines } from '../../kit/sim-builders.ts';

describe('sim venue: a conditional order meets the checks of a sent order when it is released', () => {
  it('rejects (401023) a UT market order released far above its placement price, where the margin cannot carry it', () => {
    const t = aSim({ startingBalances: { USDT: D('10000') } });
    t.sim.onMarket(aQuote(1, 1000, 5000, 1000, 5000));
    t.sim.onMarket(aTrade(1, 1000, 1, 'BUY'));
    // BUY 90 at leverage 10: 9 000 of margin at 1000 fits; 18 000 at 2000 does not
    t.send(aMarket('ut', 'BUY', '90', { condition: { code: 'UT', triggerPrice: D('2000') } }));
    t.sim.advanceTo(2);
    t.sim.onMarket(aQuote(3, 2000, 5000, 2000, 5000));
    t.sim.onMarket(aTrade(4, 2000, 1, 'BUY'));
    expect(fillLines(t)).toEqual([]);
    const updates = t.of('order').map((e) => e.order);
    expect(updates.map((o) => [o.orderState, o.action, o.actionMsg])).toEqual([
      ['NEW', 'PLACE', undefined],
      ['REJECTED', 'REJECT', 'condition UT triggered at 2000'],
    ]);
    expect(updates[1]?.reason).toMatch(
      /^401023 insufficient margin: needs 18\d\d\d\.\d\d .*available 10000\.00$/,
    );
    expect(updates[1]?.orderId).toBe(updates[0]?.orderId);
    expect(t.of('commandRejected')).toEqual([]);
  });

  it('sends a released order the margin carries, as before', () => {
    const t = aSim({ startingBalances: { USDT: D('10000') } });
    t.sim.onMarket(aQuote(1, 1000, 5000, 1000, 5000));
    t.sim.onMarket(aTrade(1, 1000, 1, 'BUY'));
    t.send(aMarket('ut', 'BUY', '40', { condition: { code: 'UT', triggerPrice: D('2000') } }));
    t.sim.advanceTo(2);
    t.sim.onMarket(aQuote(3, 2000, 5000, 2000, 5000));
    t.sim.onMarket(aTrade(4, 2000, 1, 'BUY'));
    expect(fillLines(t)).toEqual(['ut BUY 40@2000 TAKER']);
  });

  it('rejects (401097) a reduce-only stop released after its position was closed, instead of sending it', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 50, 100, 50));
    t.send(
      aMarket('b', 'BUY', '1'),
      aMarket('sl', 'SELL', '1', { reduceOnly: true, condition: { code: 'SL', triggerPrice: D('95') } }),
    );
    t.sim.advanceTo(2);
    t.send(aMarket('exit', 'SELL', '1'));
    t.sim.onMarket(aQuote(4, 94.8, 50, 94.9, 50));
    t.sim.onMarket(aTrade(5, 94.9, 1, 'SELL'));
    expect(fillLines(t)).toEqual(['b BUY 1@100 TAKER', 'exit SELL 1@99.9 TAKER']);
    const sl = t
      .of('order')
      .filter((e) => e.order.clientOrderId === 'sl')
      .map((e) => e.order);
    expect(sl.map((o) => [o.orderState, o.reason?.slice(0, 6)])).toEqual([
      ['NEW', undefined],
      ['REJECTED', '401097'],
    ]);
  });

  it('trims a reduce-only order released against a smaller position to it, and says so', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 50, 100, 50));
    t.send(
      aMarket('b', 'BUY', '2'),
      aMarket('sl', 'SELL', '2', { reduceOnly: true, condition: { code: 'SL', triggerPrice: D('95') } }),
    );
    t.sim.advanceTo(2);
    t.send(aMarket('part', 'SELL', '1.5'));
    t.sim.onMarket(aQuote(4, 94.8, 50, 94.9, 50));
    t.sim.onMarket(aTrade(5, 94.9, 1, 'SELL'));
    expect(fillLines(t)).toEqual(['b BUY 2@100 TAKER', 'part SELL 1.5@99.9 TAKER', 'sl SELL 0.5@94.8 TAKER']);
    expect(t.of('order').at(-1)?.order).toMatchObject({
      orderState: 'FILLED',
      actionMsg: 'condition SL triggered at 94.85; reduce-only qty trimmed to the position size 0.5',
    });
  });
});
