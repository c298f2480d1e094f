import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, type Order } from '../../core/model/index.ts';
import { grid } from '../../strategies/index.ts';
import { anInstrument } from '../kit/instrument-builders.ts';
import { BTC } from '../kit/kernel-events.ts';
import { anOrder } from '../kit/order-builders.ts';
import { aRestartedStrategyRig, sentLines } from '../kit/restarted-strategy-rig.ts';
import { aQuote } from '../kit/sim-builders.ts';
import { aStrategyRig } from '../kit/strategy-rig.ts';

/** Three levels a dollar apart (10 ticks of 0.1), 0.1 each, re-centred two steps beyond the ladder. */
const base = { sym: BTC, levels: 3, stepTicks: 10, qtyPerLevel: 0.1, recenterSteps: 2 };

function aGrid(params: object = {}) {
  return aStrategyRig([{ id: 'grid', strategy: grid, params: { ...base, ...params } }]);
}

function ladder(orders: readonly Order[]): string[] {
  return orders
    .map((o) => `${o.side} ${o.limitPrice.toFixed(1)}`)
    .sort((a, b) => Number(a.split(' ')[1]) - Number(b.split(' ')[1]));
}

describe('grid strategy', () => {
  it('lays `levels` buys below and sells above the first mid, stepTicks apart and on the tick', async () => {
    const rig = await aGrid();
    rig.push(aQuote(1000, 100, 5, 100.2, 5)); // mid 100.1
    expect(ladder(await rig.venueOrders())).toEqual([
      'BUY 97.1',
      'BUY 98.1',
      'BUY 99.1',
      'SELL 101.1',
      'SELL 102.1',
      'SELL 103.1',
    ]);
    expect(rig.sentOf('placeOrder').every((p) => p.qty.toFixed() === '0.1')).toBe(true);
    expect(rig.denials).toEqual([]);
  });

  it('centres the ladder on the tick nearest a mid that falls between ticks', async () => {
    const rig = await aGrid({ levels: 1 });
    rig.push(aQuote(1000, 100, 5, 100.1, 5)); // mid 100.05 -> 100.1 (half up)
    expect(ladder(await rig.venueOrders())).toEqual(['BUY 99.1', 'SELL 101.1']);
  });

  it('replaces a filled buy with a sell one step up', async () => {
    const rig = await aGrid();
    rig.push(aQuote(1000, 100, 5, 100.2, 5));
    rig.push(aQuote(1001, 98.9, 5, 99.1, 5)); // the ask touches the 99.1 buy
    expect((await rig.venueQty()).toFixed()).toBe('0.1');
    expect(ladder(await rig.venueOrders())).toEqual([
      'BUY 97.1',
      'BUY 98.1',
      'SELL 100.1',
      'SELL 101.1',
      'SELL 102.1',
      'SELL 103.1',
    ]);
  });

  it('replaces a filled sell with a buy one step down', async () => {
    const rig = await aGrid();
    rig.push(aQuote(1000, 100, 5, 100.2, 5));
    rig.push(aQuote(1001, 101.1, 5, 101.3, 5)); // the bid touches the 101.1 sell
    expect((await rig.venueQty()).toFixed()).toBe('-0.1');
    expect(ladder(await rig.venueOrders())).toContain('BUY 100.1');
    expect(ladder(await rig.venueOrders())).not.toContain('SELL 101.1');
  });

  it('replaces a rung only once it is completely filled', async () => {
    const rig = await aGrid();
    rig.push(aQuote(1000, 100, 5, 100.2, 5));
    rig.push(aQuote(1001, 98.9, 5, 99.1, 0.04)); // 0.04 of 0.1
    expect(rig.sentOf('placeOrder')).toHaveLength(6);
    rig.push(aQuote(1002, 98.9, 5, 99.1, 0.06)); // the rest
    expect(rig.sentOf('placeOrder')).toHaveLength(7);
    expect(rig.sentOf('placeOrder')[6]).toMatchObject({ side: 'SELL' });
    expect(rig.sentOf('placeOrder')[6]?.price?.toFixed(1)).toBe('100.1');
    expect(rig.sentOf('placeOrder')[6]?.qty.toFixed()).toBe('0.1');
  });

  it('stays put while the mid is within recenterSteps of the ladder, and re-centres once it leaves', async () => {
    const rig = await aGrid();
    rig.push(aQuote(1000, 100, 5, 100.2, 5));
    rig.push(aQuote(1001, 95.0, 5, 95.2, 5)); // mid 95.1: five steps down, the edge of the reach
    expect(rig.sentOf('cancelOrders')).toEqual([]);
    rig.push(aQuote(1002, 94.9, 5, 95.1, 5)); // mid 95.0: beyond it
    expect(rig.sentOf('cancelOrders')).toHaveLength(1);
    expect(ladder(await rig.venueOrders())).toEqual([
      'BUY 92.0',
      'BUY 93.0',
      'BUY 94.0',
      'SELL 96.0',
      'SELL 97.0',
      'SELL 98.0',
    ]);
  });

  it('cancels its orders when stopped', async () => {
    const rig = await aGrid();
    rig.push(aQuote(1000, 100, 5, 100.2, 5));
    rig.stop();
    expect(await rig.venueOrders()).toEqual([]);
  });

  it('keeps an orderly ladder on any quote path: on the tick, buys below sells, at most one order per price', async () => {
    const step = fc.record({
      move: fc.integer({ min: -30, max: 30 }),
      spread: fc.integer({ min: 1, max: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (path) => {
        const rig = await aGrid();
        let bid = 1000;
        let ts = 1000;
        for (const s of path) {
          bid += s.move;
          ts += 1;
          rig.push(aQuote(ts, bid / 10, 5, (bid + s.spread) / 10, 5));
          const open = await rig.venueOrders();
          const ticks = open.map((o) => o.limitPrice.div('0.1'));
          expect(ticks.every((t) => t.isInteger())).toBe(true);
          const buys = open.filter((o) => o.side === 'BUY').map((o) => o.limitPrice.toNumber());
          const sells = open.filter((o) => o.side === 'SELL').map((o) => o.limitPrice.toNumber());
          if (buys.length > 0 && sells.length > 0) expect(Math.max(...buys)).toBeLessThan(Math.min(...sells));
          expect(new Set(open.map((o) => o.limitPrice.toFixed())).size).toBe(open.length);
          expect(open.length).toBeLessThanOrEqual(6);
        }
        expect(rig.denials).toEqual([]);
        expect(rig.faults).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });

  it('on a spot sym lays only the sells the base coin held covers, so none is refused', async () => {
    const SPOT = 'OKX_SPOT_ETH_USDT';
    const instruments = [anInstrument(SPOT)];
    const params = { ...base, sym: SPOT };
    const none = await aStrategyRig([{ id: 'grid', strategy: grid, params }], { instruments });
    none.push(aQuote(1000, 100, 5, 100.2, 5, SPOT));
    expect(ladder(await none.venueOrders())).toEqual(['BUY 97.1', 'BUY 98.1', 'BUY 99.1']);
    const some = await aStrategyRig([{ id: 'grid', strategy: grid, params }], {
      instruments,
      holdings: { ETH: 0.25 },
    });
    some.push(aQuote(1000, 100, 5, 100.2, 5, SPOT));
    expect(ladder(await some.venueOrders())).toEqual([
      'BUY 97.1',
      'BUY 98.1',
      'BUY 99.1',
      'SELL 101.1',
      'SELL 102.1',
    ]);
    expect([...none.denials, ...some.denials]).toEqual([]);
    expect(some.userEvents.some((e) => e.kind === 'order' && e.order.orderState === 'REJECTED')).toBe(false);
  });

  it('rejects nonsense parameters', () => {
    const parse = (p: object) => grid.params.safeParse({ ...base, ...p }).success;
    expect(parse({})).toBe(true);
    expect(parse({ levels: 0 })).toBe(false);
    expect(parse({ levels: 51 })).toBe(false);
    expect(parse({ stepTicks: 0.5 })).toBe(false);
    expect(parse({ qtyPerLevel: 0 })).toBe(false);
    expect(parse({ recenterSteps: 0 })).toBe(false);
    expect(parse({ step: 1 })).toBe(false);
  });
});

describe('grid strategy, restarted', () => {
  it('cancels the rungs its earlier run left before laying its ladder, so it never holds two', async () => {
    const rung = (n: number, side: 'BUY' | 'SELL', price: string) =>
      anOrder({
        orderId: `v${n}`,
        clientOrderId: `grid-tow6r1fr-${n}`,
        sym: BTC,
        side,
        limitPrice: D(price),
      });
    const rig = await aRestartedStrategyRig({ id: 'grid', strategy: grid, params: { ...base, levels: 1 } }, [
      rung(1, 'BUY', '90.0'),
      rung(2, 'SELL', '110.0'),
    ]);
    rig.market.next(aQuote(1000, 100, 5, 100.2, 5)); // mid 100.1
    expect(sentLines(rig)).toEqual(['cancelOrders', 'placeOrder BUY 99.1', 'placeOrder SELL 101.1']);
    expect(rig.denials).toEqual([]);
  });
});
