import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timesSize } from '../../../backtest/sim/contract-size.ts';
import { D, type Dec } from '../../../core/model/index.ts';

/** Amounts of up to 30 significant digits, both signs and negative zero. */
const amount: fc.Arbitrary<Dec> = fc.oneof(
  fc.constantFrom(D(0), D('-0'), D('0.001'), D(-3)),
  fc
    .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: -20, max: 5 }))
    .map(([digits, exponent]) => D(`${digits}e${exponent}`)),
);

const size: fc.Arbitrary<Dec> = fc.constantFrom(D(1), D('1.000'), D('0.001'), D(10), D('0.5'), D(100));

describe('timesSize', () => {
  it('gives amount x contract size, value and sign, skipping the product only for a size of exactly 1', () => {
    fc.assert(
      fc.property(amount, size, (a, s) => {
        const product = timesSize(a, s);
        expect(product.valueOf()).toBe(a.mul(s).valueOf());
        if (s.eq(1)) expect(product).toBe(a);
      }),
    );
  });
});
