import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import {
  aMark,
  aMarket,
  anAlgo,
  aQuote,
  aSim,
  fillLines,
  type SimUnderTest,
} from '../../kit/sim-builders.ts';

/** A reduce-only SELL 2 algo order firing into a market order when the mark falls to 95. */
const stop = anAlgo('ra', {
  side: 'SELL',
  conditionType: 'LTE',
  triggerType: 'MarkPrice',
  triggerPrice: D('95'),
  qty: D('2'),
  reduceOnly: true,
});

function aSimAt100(): SimUnderTest {
  const t = aSim();
  t.sim.onMarket(aQuote(0, 99.9, 50, 100, 50));
  t.sim.onMarket(aMark(0, 100));
  return t;
}

/** Moves the market to bid 94.9 / ask 95, mark 94.95: the stop fires. */
function fall(t: SimUnderTest): void {
  t.sim.onMarket(aQuote(3, 94.9, 50, 95, 50));
  t.sim.onMarket(aMark(3, 94.95));
}

describe('a fired algo order meets the checks of a new order', () => {
  it('trims a reduce-only order to the position it finds, as a direct one is', () => {
    const t = aSimAt100();
    t.send(aMarket('b', 'BUY', '2'), stop, aMarket('s', 'SELL', '1.5'));
    t.sim.advanceTo(2);
    fall(t);
    const updates = t.of('order').filter((e) => e.order.clientOrderId === 'ra-trig');
    // Long 0.5 left: the SELL 2 is sent as SELL 0.5 (before: NEW 2, filled 0.5, CANCELLED REDUCE_ONLY).
    expect(updates.map((e) => [e.order.orderState, e.order.orderQty.toFixed(), e.order.cancelType])).toEqual([
      ['NEW', '0.5', undefined],
      ['FILLED', '0.5', undefined],
    ]);
    expect(updates[0]?.order.actionMsg).toBe('reduce-only qty trimmed to the position size 0.5');
    expect(fillLines(t).at(-1)).toBe('ra-trig SELL 0.5@94.9 TAKER');
  });

  it('refuses a reduce-only order with nothing to reduce (401097) and the algo order fails', () => {
    const t = aSimAt100();
    t.send(stop);
    t.sim.advanceTo(2);
    fall(t);
    expect(t.of('algoOrder').map((e) => e.algoOrder.state)).toEqual(['NEW', 'FAILED']);
    const updates = t.of('order').filter((e) => e.order.clientOrderId === 'ra-trig');
    // Before: created NEW, then CANCELLED REDUCE_ONLY, the algo order TRIGGERED.
    expect(updates.map((e) => e.order.orderState)).toEqual(['REJECTED']);
    expect(updates[0]?.order.reason).toBe(
      '401097 position quantity is 0: nothing to reduce on BINANCE_PERP_BTC_USDT',
    );
  });
});
