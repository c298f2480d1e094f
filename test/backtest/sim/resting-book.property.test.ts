import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RestingBook } from '../../../backtest/sim/resting-book.ts';
import type { SimOrder } from '../../../backtest/sim/sim-order.ts';

/** The fields the book reads: a side and a price. */
function anOrder(id: number, sign: 1 | -1, priceN: number): SimOrder {
  return { clientOrderId: `o${id}`, sign, priceN } as unknown as SimOrder;
}

/** The book's order, recomputed from scratch: best price first, ties in arrival order. */
function expected(arrivals: readonly SimOrder[], sign: 1 | -1): string[] {
  return arrivals
    .map((order, seq) => ({ order, seq }))
    .filter(({ order }) => order.sign === sign)
    .sort((a, b) => (a.order.priceN - b.order.priceN) * -sign || a.seq - b.seq)
    .map(({ order }) => order.clientOrderId);
}

describe('RestingBook', () => {
  it('keeps each side in price-time order through any sequence of adds and removes', () => {
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('add' as const),
        sign: fc.constantFrom<1 | -1>(1, -1),
        priceN: fc.integer({ min: 1, max: 6 }),
      }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const book = new RestingBook();
        // The live orders in the order they (last) arrived.
        let arrivals: SimOrder[] = [];
        let id = 0;
        for (const s of steps) {
          if (s.kind === 'add') {
            const order = anOrder(id++, s.sign, s.priceN);
            book.add(order);
            arrivals.push(order);
          } else if (arrivals.length > 0) {
            const order = arrivals[s.pick % arrivals.length] as SimOrder;
            expect(book.remove(order)).toBe(true);
            expect(book.remove(order)).toBe(false);
            arrivals = arrivals.filter((o) => o !== order);
          }
          expect(book.buys.map((o) => o.clientOrderId)).toEqual(expected(arrivals, 1));
          expect(book.sells.map((o) => o.clientOrderId)).toEqual(expected(arrivals, -1));
          expect(book.size).toBe(arrivals.length);
        }
      }),
    );
  });
});
