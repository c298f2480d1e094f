import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BarEvent, Intent } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import { aFeedBar } from '../../kit/kernel-events.ts';
import { aLimit, aMarket, anAlgo, aSim } from '../../kit/sim-builders.ts';

const MINUTE = 60_000;

/** One 1m bar as [open, high, low, close] in ticks of 0.1, the high and low around the open. */
const barPrices = fc
  .record({
    open: fc.integer({ min: 950, max: 1050 }),
    up: fc.integer({ min: 0, max: 40 }),
    down: fc.integer({ min: 0, max: 40 }),
    close: fc.integer({ min: 0, max: 100 }),
  })
  .map(({ open, up, down, close }) => {
    const high = open + up;
    const low = open - down;
    const at = low + Math.round(((high - low) * close) / 100);
    return [open / 10, high / 10, low / 10, at / 10] as const;
  });

/** An order sent at some millisecond of the session: market, limit, or a last-price algo order. */
const timedOrder = (minutes: number) =>
  fc.record({
    at: fc.integer({ min: 0, max: minutes * MINUTE }),
    kind: fc.constantFrom('market', 'limit', 'algo'),
    side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
    price: fc.integer({ min: 930, max: 1070 }).map((n) => (n / 10).toFixed(1)),
  });

function intentOf(ref: string, order: { kind: string; side: 'BUY' | 'SELL'; price: string }): Intent {
  if (order.kind === 'market') return aMarket(ref, order.side, '0.01');
  if (order.kind === 'limit') return aLimit(ref, order.side, '0.01', order.price);
  return anAlgo(ref, {
    side: order.side,
    qty: D('0.01'),
    conditionType: order.side === 'BUY' ? 'GTE' : 'LTE',
    triggerPrice: D(order.price),
  });
}

describe('sim venue on bars: no look-ahead (property)', () => {
  it('fills an order only at prices of bars that opened at or after its arrival, never before it arrived', () => {
    const session = fc
      .integer({ min: 2, max: 12 })
      .chain((minutes) =>
        fc.tuple(
          fc.array(barPrices, { minLength: minutes, maxLength: minutes }),
          fc.array(timedOrder(minutes), { minLength: 1, maxLength: 8 }),
        ),
      );
    fc.assert(
      fc.property(session, ([prices, orders]) => {
        const t = aSim({ fillModel: 'bar', startingBalances: { USDT: D('1000000') } });
        const bars: BarEvent[] = prices.map(([o, h, l, c], i) => aFeedBar(i * MINUTE, [o, h, l, c, 10]));
        const sent = orders.map((order, i) => ({ ...order, ref: `o${i}` })).sort((a, b) => a.at - b.at);
        const arrival = new Map<string, number>();
        let next = 0;
        for (const bar of bars) {
          for (; next < sent.length && (sent[next]?.at ?? 0) <= bar.recvTs; next++) {
            const order = sent[next] as (typeof sent)[number];
            t.sim.advanceTo(order.at);
            arrival.set(order.ref, t.sim.now());
            t.send(intentOf(order.ref, order));
          }
          t.sim.onMarket(bar);
        }
        for (const { execution: fill } of t.of('execution')) {
          // An algo order's child carries the algo's reference: `o3-trig`.
          const ref = fill.clientOrderId.split('-')[0] as string;
          const arrived = arrival.get(ref) as number;
          expect(fill.timestamp, `${fill.clientOrderId} filled before it arrived`).toBeGreaterThanOrEqual(
            arrived,
          );
          const later = bars.filter((bar) => bar.openTime >= arrived);
          const low = Math.min(...later.map((bar) => bar.low));
          const high = Math.max(...later.map((bar) => bar.high));
          const price = fill.price.toNumber();
          expect(
            price >= low - 1e-9 && price <= high + 1e-9,
            `${fill.clientOrderId} arrived at ${arrived} filled at ${price}, outside [${low}, ${high}] of the bars opening after`,
          ).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
