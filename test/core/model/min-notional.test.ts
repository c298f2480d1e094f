import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asNumber, D, isNotionalBelowMinimum } from '../../../core/model/index.ts';

describe('isNotionalBelowMinimum', () => {
  it('answers as the exact Decimal product does, at the boundary and away from it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.constantFrom('1', '0.01', '0.001', '10'),
        fc.integer({ min: -2, max: 2 }),
        (lots, ticks, contractSize, offset) => {
          const qty = D(lots).mul('0.01');
          const price = D(ticks).mul('0.1');
          const exact = qty.mul(price).mul(contractSize);
          const min = exact.add(D(offset).mul('0.0001'));
          const spec = { contractSize: D(contractSize), minNotional: min };
          const below = isNotionalBelowMinimum(
            qty,
            asNumber(qty),
            asNumber(price),
            spec,
            Number(contractSize),
            asNumber(min),
          );
          expect(below).toBe(exact.lt(min));
        },
      ),
    );
  });
});
