import { describe, expect, it } from 'vitest';
import { type BarEvent, D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimit, aQuote, aSim } from '../../kit/sim-builders.ts';

const AAPL = 'US_EQUITY_AAPL';
const at = (iso: string): number => Date.parse(iso);

function anEquitySim(fillModel: 'bar' | 'through') {
  return aSim({
    fillModel,
    instruments: [
      anInstrument(AAPL, { tickSize: D('0.01'), lotSize: D('1'), minSize: D('1'), settleAsset: 'USD' }),
    ],
    startingBalances: { USD: D('100000') },
  });
}

/** A daily bar as a Yahoo-style import stamps it: from one New York midnight to the next. */
function aDailyBar(
  openIso: string,
  closeIso: string,
  ohlc: readonly [number, number, number, number],
): BarEvent {
  const [open, high, low, close] = ohlc;
  const ts = at(closeIso);
  const openTime = at(openIso);
  return {
    kind: 'bar',
    sym: AAPL,
    ts,
    recvTs: ts,
    interval: '1d',
    openTime,
    open,
    high,
    low,
    close,
    volume: 1e6,
    closed: true,
  };
}

describe('sim venue: timers', () => {
  it('ends a US equity DAY order at the 16:00 New York close of its trading day', () => {
    const t = anEquitySim('through');
    // Friday 6 March 2026, 10:00 EST.
    t.sim.onMarket(aQuote(at('2026-03-06T15:00:00Z'), 189.99, 500, 190, 500, AAPL));
    t.send(aLimit('day', 'BUY', '10', '180', { sym: AAPL, timeInForce: 'DAY' }));
    t.sim.advanceTo(at('2026-03-06T20:59:59Z'));
    expect(t.of('order').at(-1)?.order.orderState).toBe('OPEN');
    t.sim.advanceTo(at('2026-03-06T21:00:00Z'));
    expect(t.of('order').at(-1)?.order).toMatchObject({
      orderState: 'CANCELLED',
      updateAt: at('2026-03-06T21:00:00Z'),
    });
  });

  it('ends a US equity GTD order at the end of its expiry date in New York, as the kernel writes the date', () => {
    const t = anEquitySim('through');
    t.sim.onMarket(aQuote(at('2026-03-06T15:00:00Z'), 189.99, 500, 190, 500, AAPL));
    t.send(aLimit('gtd', 'BUY', '10', '180', { sym: AAPL, timeInForce: 'GTD', expiryDate: '2026-03-06' }));
    // Midnight UTC is 19:00 EST on the 6th: still that date in New York.
    t.sim.advanceTo(at('2026-03-07T04:59:59Z'));
    expect(t.of('order').at(-1)?.order.orderState).toBe('OPEN');
    t.sim.advanceTo(at('2026-03-07T05:00:00Z'));
    expect(t.of('order').at(-1)?.order).toMatchObject({
      orderState: 'CANCELLED',
      action: 'EXPIRE',
      updateAt: at('2026-03-07T05:00:00Z'),
    });
  });

  it('ends a crypto DAY order at the next 00:00 UTC', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(at('2026-03-06T15:00:00Z'), 99.9, 100, 100, 100));
    t.send(aLimit('day', 'BUY', '1', '90', { timeInForce: 'DAY' }));
    t.sim.advanceTo(at('2026-03-06T23:59:59Z'));
    expect(t.of('order').at(-1)?.order.orderState).toBe('OPEN');
    t.sim.advanceTo(at('2026-03-07T00:00:00Z'));
    expect(t.of('order').at(-1)?.order.orderState).toBe('CANCELLED');
  });

  it('matches a DAY order against the whole daily bar it was live in, then expires it', () => {
    const t = anEquitySim('bar');
    // Thursday's bar closes at Friday 00:00 New York (05:00Z); the DAY order is placed then and
    // lives to Friday 16:00 New York, inside Friday's bar (05:00Z to Saturday 05:00Z).
    t.sim.onMarket(aDailyBar('2026-03-05T05:00:00Z', '2026-03-06T05:00:00Z', [190, 192, 188, 191]));
    t.send(aLimit('dip', 'BUY', '10', '187.5', { sym: AAPL, timeInForce: 'DAY' }));
    t.send(aLimit('miss', 'BUY', '10', '180', { sym: AAPL, timeInForce: 'DAY' }));
    t.sim.onMarket(aDailyBar('2026-03-06T05:00:00Z', '2026-03-07T05:00:00Z', [190.5, 191, 186, 189]));
    const fills = t
      .of('execution')
      .map((e) => `${e.execution.clientOrderId} ${e.execution.quantity}@${e.execution.price}`);
    // Low 186 went through 187.5: filled at the limit; 180 was never reached.
    expect(fills).toEqual(['dip 10@187.5']);
    const miss = t
      .of('order')
      .filter((e) => e.order.clientOrderId === 'miss')
      .at(-1)?.order;
    expect(miss?.orderState).toBe('CANCELLED');
  });
});
