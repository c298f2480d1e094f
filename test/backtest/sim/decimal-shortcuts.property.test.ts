import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atLeastZero, notBelowZero, smallerOf } from '../../../backtest/sim/decimal-compare.ts';
import { addTo, minusAmount, plusAmount } from '../../../backtest/sim/decimal-sums.ts';
import { hasRemainder, remainderOf } from '../../../backtest/sim/sim-order.ts';
import { D, type Dec, isAboveZero, isBelowZero, ZERO } from '../../../core/model/index.ts';

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

/**
 * Decimals as above, plus values with more digits than the precision (decimal.js rounds them when
 * it adds), zeros of both signs and the non-finite values.
 */
const wideDecimal: fc.Arbitrary<Dec> = fc.oneof(
  decimal,
  fc.constantFrom(D(0), D('-0'), D(Number.NaN), D(Number.POSITIVE_INFINITY), D(Number.NEGATIVE_INFINITY)),
  fc
    .tuple(fc.bigInt({ min: -(10n ** 60n), max: 10n ** 60n }), fc.integer({ min: -70, max: 30 }))
    .map(([digits, exponent]) => D(`${digits}e${exponent}`)),
);

/** The same Decimal: value and sign (a negative zero prints "-0" in JSON). */
function same(a: Dec, b: Dec): void {
  expect(a.valueOf()).toBe(b.valueOf());
}

describe('decimal shortcuts of the sim', () => {
  it('tell the sign like decimal.js and pick what Decimal.min / Decimal.max return, signed zeros included', () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        expect(isAboveZero(a)).toBe(a.gt(0));
        expect(isBelowZero(a)).toBe(a.lt(0));
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

  it('add and subtract like decimal.js, zero amounts, long values and signed zeros included', () => {
    fc.assert(
      fc.property(wideDecimal, fc.oneof(wideDecimal, fc.constantFrom(D(0), D('-0'))), (value, amount) => {
        same(plusAmount(value, amount), value.plus(amount));
        same(minusAmount(value, amount), value.minus(amount));
        same(remainderOf({ qty: value, filled: amount }), value.minus(amount));
        expect(hasRemainder({ qty: value, filled: amount })).toBe(value.gt(amount));
      }),
      { numRuns: 20000 },
    );
  });
});
