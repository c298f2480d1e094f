import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PlaceOrderIntent } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import { aBar, aLimit, aMarket, aSim } from '../../kit/sim-builders.ts';

function bracket(tp: number, sl: number): Pick<PlaceOrderIntent, 'tp' | 'sl'> {
  return {
    tp: { triggerPrice: D(tp), triggerType: 'LastPrice', price: D('0') },
    sl: { triggerPrice: D(sl), triggerType: 'LastPrice', price: D('0') },
  };
}

/** Whole-number prices around 1000: a bar open, distances to the tp / sl, and how far past them the bar goes. */
const distances = fc.record({
  open: fc.integer({ min: 900, max: 1100 }),
  toTp: fc.integer({ min: 1, max: 30 }),
  toSl: fc.integer({ min: 1, max: 30 }),
  pastTp: fc.integer({ min: 0, max: 30 }),
  pastSl: fc.integer({ min: 0, max: 30 }),
  close: fc.double({ min: 0, max: 1, noNaN: true }),
  long: fc.boolean(),
});

describe('sim venue: bar fill model is conservative (property)', () => {
  it('exits a bracket entered at the open at its stop whenever the entry bar reaches both legs', () => {
    fc.assert(
      fc.property(distances, ({ open, toTp, toSl, pastTp, pastSl, close, long }) => {
        const t = aSim({ fillModel: 'bar' });
        t.sim.onMarket(aBar(60_000, open, open, open, open));
        const [tp, sl] = long ? [open + toTp, open - toSl] : [open - toTp, open + toSl];
        t.send(aMarket('m', long ? 'BUY' : 'SELL', '1', bracket(tp, sl)));
        const high = long ? tp + pastTp : sl + pastSl;
        const low = long ? sl - pastSl : tp - pastTp;
        t.sim.onMarket(aBar(120_000, open, high, low, Math.round(low + (high - low) * close)));
        const exit = t.of('execution').at(-1)?.execution;
        expect([exit?.clientOrderId, exit?.price.toNumber(), exit?.rpnl.toNumber()]).toEqual([
          'm-sl-trig',
          sl,
          -toSl,
        ]);
      }),
      { numRuns: 200 },
    );
  });

  it('exits a limit entry at its stop whenever the price goes on past the stop after the fill', () => {
    fc.assert(
      fc.property(distances, fc.integer({ min: 1, max: 30 }), (d, below) => {
        const { open, toTp, toSl, pastTp, pastSl, close, long } = d;
        // The limit sits `below` away from the open on the side it buys (or sells) at.
        const entry = long ? open - below : open + below;
        const [tp, sl] = long ? [entry + toTp, entry - toSl] : [entry - toTp, entry + toSl];
        const t = aSim({ fillModel: 'bar' });
        t.sim.onMarket(aBar(60_000, open, open, open, open));
        t.send(aLimit('b', long ? 'BUY' : 'SELL', '1', String(entry), bracket(tp, sl)));
        // The bar reaches the tp and goes past the stop: whichever extreme comes first, the price
        // reaches the stop after the entry, on the same way.
        const high = Math.max(open, long ? tp : sl) + (long ? pastTp : pastSl);
        const low = Math.min(open, long ? sl : tp) - (long ? pastSl : pastTp);
        t.sim.onMarket(aBar(120_000, open, high, low, Math.round(low + (high - low) * close)));
        const fills = t.of('execution').map((e) => [e.execution.clientOrderId, e.execution.price.toNumber()]);
        expect(fills).toEqual([
          ['b', entry],
          ['b-sl-trig', sl],
        ]);
      }),
      { numRuns: 200 },
    );
  });
});
