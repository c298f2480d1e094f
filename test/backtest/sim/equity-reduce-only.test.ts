import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import {
  aLimit,
  aMarket,
  aQuote,
  aSim,
  aTrade,
  BTC,
  fillLines,
  type SimUnderTest,
} from '../../kit/sim-builders.ts';

const AAPL = 'US_EQUITY_AAPL';
/** Monday 2026-03-09 15:00 New York (EDT): the regular session is open. */
const T = Date.parse('2026-03-09T19:00:00Z');

function aSimTrading(sym: string): SimUnderTest {
  const t = aSim({
    instruments: [
      anInstrument(AAPL, { tickSize: D('0.01'), lotSize: D('1'), minSize: D('1'), settleAsset: 'USD' }),
      anInstrument(BTC),
    ],
    startingBalances: { USD: D('100000'), USDT: D('100000') },
  });
  t.sim.onMarket(aQuote(T, 99.9, 1000, 100, 1000, sym));
  return t;
}

function lastOrder(t: SimUnderTest, ref: string) {
  return t.of('order').findLast((e) => e.order.clientOrderId === ref)?.order;
}

function positionQty(t: SimUnderTest): string | undefined {
  return t.of('position').at(-1)?.position.positionQty.toFixed();
}

/** Long 100, a reduce-only SELL 100 @ 101 resting, then a market SELL 100 flattens the position. */
function flattenUnderReduceOnly(sym: string): SimUnderTest {
  const t = aSimTrading(sym);
  t.send(aMarket('buy', 'BUY', '100', { sym }));
  t.sim.advanceTo(T + 1);
  t.send(aLimit('ro', 'SELL', '100', '101', { sym, reduceOnly: true }));
  t.sim.advanceTo(T + 2);
  t.send(aMarket('flat', 'SELL', '100', { sym }));
  t.sim.advanceTo(T + 3);
  return t;
}

describe('sim venue: a reduce-only US-equity order (PLACE_ORDER has no reduce-only flag)', () => {
  it('stays open when the position goes flat, and fills into a short as the venue fills it', () => {
    const t = flattenUnderReduceOnly(AAPL);
    expect(positionQty(t)).toBe('0');
    expect(lastOrder(t, 'ro')).toMatchObject({ orderState: 'OPEN', reduceOnly: false });
    t.sim.onMarket(aTrade(T + 4, 101.5, 1000, 'BUY', AAPL));
    expect(fillLines(t).at(-1)).toBe('ro SELL 100@101 MAKER');
    expect(positionQty(t)).toBe('-100');
  });

  it('is not trimmed to a smaller position when sent', () => {
    const t = aSimTrading(AAPL);
    t.send(aMarket('buy', 'BUY', '100', { sym: AAPL }));
    t.sim.advanceTo(T + 1);
    t.send(aLimit('ro', 'SELL', '150', '101', { sym: AAPL, reduceOnly: true }));
    t.sim.advanceTo(T + 2);
    expect(lastOrder(t, 'ro')?.orderQty.toFixed()).toBe('150');
  });

  it('keeps trimming and cancelling a crypto reduce-only order, as that venue does', () => {
    const t = flattenUnderReduceOnly(BTC);
    t.sim.onMarket(aTrade(T + 4, 101.5, 1000, 'BUY', BTC));
    expect(lastOrder(t, 'ro')).toMatchObject({ orderState: 'CANCELLED', cancelType: 'REDUCE_ONLY' });
    expect(positionQty(t)).toBe('0');
  });
});
