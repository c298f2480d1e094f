import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MarketEvent } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import { aLimit, anAlgo, aQuote, aSim, BTC, fillLines } from '../../kit/sim-builders.ts';

const SENT = 1_000;

/**
 * A print the venue made before `arrival`, received by the recorder at or after it (quotes are
 * left out: one stamped before an arrival still stood then, and meets the order).
 */
function eventBefore(arrival: number): fc.Arbitrary<MarketEvent> {
  const ts = fc.integer({ min: SENT - 50, max: arrival - 1 });
  const late = fc.integer({ min: 0, max: 200 });
  const price = fc.integer({ min: 85, max: 115 });
  const qty = fc.integer({ min: 1, max: 20 });
  const trade = fc.record({ ts, late, price, qty, side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL') }).map(
    (e): MarketEvent => ({
      kind: 'trade',
      sym: BTC,
      ts: e.ts,
      recvTs: arrival + e.late,
      tradeId: `t${e.ts}-${e.late}`,
      price: e.price,
      qty: e.qty,
      side: e.side,
    }),
  );
  return trade;
}

describe('sim venue: prints made on the venue before an order arrived', () => {
  it('never fill a resting order nor trigger an algo order, whatever their prices; a print at the arrival does fill', () => {
    const scenario = fc.integer({ min: 1, max: 60 }).chain((latencyMs) =>
      fc.record({
        latencyMs: fc.constant(latencyMs),
        fillModel: fc.constantFrom<'touch' | 'through' | 'queue'>('touch', 'through', 'queue'),
        // Not marketable on arrival against the 100 / 101 quote: buys at or below 100, sells at or above 101.
        buys: fc.array(fc.integer({ min: 95, max: 100 }), { minLength: 1, maxLength: 3 }),
        sells: fc.array(fc.integer({ min: 101, max: 106 }), { maxLength: 3 }),
        triggers: fc.array(fc.record({ price: fc.integer({ min: 88, max: 112 }), up: fc.boolean() }), {
          maxLength: 3,
        }),
        events: fc.array(eventBefore(SENT + latencyMs), { maxLength: 30 }),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ latencyMs, fillModel, buys, sells, triggers, events }) => {
        const t = aSim({
          fillModel,
          latency: {
            orderEntry: { fixedMs: latencyMs, jitterMs: 0 },
            marketData: { fixedMs: 0, jitterMs: 0 },
            userData: { fixedMs: 0, jitterMs: 0 },
          },
        });
        t.sim.onMarket(aQuote(SENT, 100, 5, 101, 5));
        t.send(
          ...buys.map((price, i) => aLimit(`b${i}`, 'BUY', '1', `${price}`)),
          ...sells.map((price, i) => aLimit(`s${i}`, 'SELL', '1', `${price}`)),
          ...triggers.map(({ price, up }, i) =>
            anAlgo(`a${i}`, { triggerPrice: D(price), conditionType: up ? 'GTE' : 'LTE' }),
          ),
        );
        const arrival = SENT + latencyMs;
        for (const event of [...events].sort((a, b) => a.recvTs - b.recvTs)) t.sim.onMarket(event);
        t.sim.advanceTo(arrival + 200);
        expect(fillLines(t)).toEqual([]);
        expect(t.of('algoOrder').every((e) => e.algoOrder.state === 'NEW')).toBe(true);
        // A print through every buy, made on the venue when they arrived.
        t.sim.onMarket({
          kind: 'trade',
          sym: BTC,
          ts: arrival,
          recvTs: arrival + 300,
          tradeId: 'through',
          price: 90,
          qty: 100,
          side: 'SELL',
        });
        const buyFills = fillLines(t).filter((line) => line.startsWith('b'));
        expect(buyFills.sort()).toEqual(buys.map((price, i) => `b${i} BUY 1@${price} MAKER`).sort());
      }),
      { numRuns: 200 },
    );
  });
});
