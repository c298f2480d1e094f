import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aLimit, aMarket, aQuote, aSim, aTrade, BTC } from '../../kit/sim-builders.ts';

describe('sim venue: market orders', () => {
  it('walks the displayed size and fills the remainder one tick beyond the book', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 5, 100, 0.4));
    t.send(aMarket('m1', 'BUY', '1'));
    t.sim.advanceTo(2);
    const fills = t.of('execution').map((e) => e.execution);
    expect(fills.map((f) => [f.quantity.toFixed(), f.price.toFixed(), f.fee.toFixed()])).toEqual([
      ['0.4', '100', '0.02'],
      ['0.6', '100.1', '0.03003'],
    ]);
    // position avg = (0.4 x 100 + 0.6 x 100.1) / 1 = 100.06
    expect(t.of('position').at(-1)?.position.avgPrice.toFixed()).toBe('100.06');
  });

  it('kills a market FOK order the displayed size cannot fill entirely, and fills one it can', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 5, 100, 0.4));
    t.send(aMarket('f1', 'BUY', '1', { timeInForce: 'FOK' }));
    t.sim.advanceTo(2);
    expect(t.of('execution')).toHaveLength(0);
    expect(t.of('order').at(-1)?.order).toMatchObject({
      clientOrderId: 'f1',
      orderState: 'CANCELLED',
      cancelType: 'FOK',
    });
    t.send(aMarket('f2', 'BUY', '0.4', { timeInForce: 'FOK' }));
    t.sim.advanceTo(3);
    expect(
      t.of('execution').map((e) => [e.execution.quantity.toFixed(), e.execution.price.toFixed()]),
    ).toEqual([['0.4', '100']]);
  });

  it('adds the configured slippage ticks to every market fill', () => {
    const t = aSim({ fillModel: { name: 'through', slippageTicks: 2 } });
    t.sim.onMarket(aQuote(1, 99.9, 5, 100, 0.4));
    t.send(aMarket('m1', 'SELL', '1'));
    t.sim.advanceTo(2);
    // sells hit the bid 99.9: 2 ticks worse = 99.7 for the displayed 1 (bid size 5 covers it)
    expect(
      t.of('execution').map((e) => [e.execution.quantity.toFixed(), e.execution.price.toFixed()]),
    ).toEqual([['1', '99.7']]);
  });

  it('fills entirely at the best price when partial fills are off', () => {
    const t = aSim({ fillModel: { name: 'touch', partialFills: false } });
    t.sim.onMarket(aQuote(1, 99.9, 5, 100, 0.4));
    t.send(aMarket('m1', 'BUY', '1'));
    t.sim.advanceTo(2);
    expect(
      t.of('execution').map((e) => [e.execution.quantity.toFixed(), e.execution.price.toFixed()]),
    ).toEqual([['1', '100']]);
  });

  it('waits for the first price when none is known, then fills against it', () => {
    const t = aSim();
    t.send(aMarket('m1', 'BUY', '1'));
    t.sim.advanceTo(5);
    expect(t.of('execution')).toHaveLength(0);
    t.sim.onMarket(aTrade(6, 101.3, 0.1, 'BUY'));
    // the trade's 0.1 @101.3, the other 0.9 one tick (0.1) beyond: 101.4
    expect(
      t.of('execution').map((e) => [e.execution.quantity.toFixed(), e.execution.price.toFixed()]),
    ).toEqual([
      ['0.1', '101.3'],
      ['0.9', '101.4'],
    ]);
  });

  it('keeps one waiting entry when an order waiting for its first price is modified', () => {
    const t = aSim();
    t.send(aLimit('b1', 'BUY', '1', '100'));
    t.send({ kind: 'modifyOrder', ref: 'm', target: 'b1', sym: BTC, price: D('101') });
    t.sim.onMarket(aQuote(2, 100.5, 5, 100.6, 5));
    expect(
      t.of('execution').map((e) => [e.execution.quantity.toFixed(), e.execution.price.toFixed()]),
    ).toEqual([['1', '100.6']]);
  });
});
