import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  atLeastZero,
  differs,
  isAbove,
  isBelow,
  notBelowZero,
  smallerOf,
} from '../../../backtest/sim/decimal-compare.ts';
import { addTo } from '../../../backtest/sim/decimal-sums.ts';
import { asNumber, D, type Dec, isAboveZero, isBelowZero, ZERO } from '../../../core/model/index.ts';

/** Decimals of up to 40 digits, both signs, negative zero included; many equal to each other. */
const decimal: fc.Arbitrary<Dec> = fc.oneof(
  fc.constantFrom(D(0), D('-0'), D(1), D(-1), D('0.1'), D('5')),
  fc
    .tuple(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: -30, max: 10 }))
    .map(([digits, exponent]) => D(`${digits}e${exponent}`)),
  fc
    .tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 4 }))
    .map(([n, k]) => D(n).div(10 ** k)),
);

/** The same Decimal: value and sign (a negative zero prints "-0" in JSON). */
function same(a: Dec, b: Dec): void {
  expect(a.valueOf()).toBe(b.valueOf());
}

describe('decimal shortcuts of the sim', () => {
  it('compare like decimal.js and pick what Decimal.min / Decimal.max return, signed zeros included', () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        expect(isAboveZero(a)).toBe(a.gt(0));
        expect(isBelowZero(a)).toBe(a.lt(0));
        expect(isBelow(a, asNumber(a), b, asNumber(b))).toBe(a.lt(b));
        expect(isAbove(a, asNumber(a), b, asNumber(b))).toBe(a.gt(b));
        expect(differs(a, asNumber(a), b, asNumber(b))).toBe(!a.eq(b));
        same(smallerOf(a, b), D.min(a, b));
        same(atLeastZero(a), D.max(ZERO, a));
        same(notBelowZero(a), D.max(a, ZERO));
      }),
      { numRuns: 5000 },
    );
  });

  it('sum from ZERO to what decimal.js additions give', () => {
    fc.assert(
      fc.property(fc.array(decimal, { maxLength: 5 }), (amounts) => {
        same(
          amounts.reduce((sum, amount) => addTo(sum, amount), ZERO),
          amounts.reduce((sum, amount) => sum.plus(amount), ZERO),
        );
      }),
      { numRuns: 5000 },
    );
  });
});
