import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  asNumber,
  D,
  type Dec,
  differs,
  isAbove,
  isAtLeast,
  isAtMost,
  isBelow,
} from '../../../core/model/index.ts';
import { decimalPairs, EDGE_DECIMALS } from '../../kit/decimal-arbitraries.ts';

/** Every comparison against decimal.js's own answer, given the doubles the callers pass. */
function expectDecimalAnswers(a: Dec, aN: number, b: Dec, bN: number): void {
  expect(isBelow(a, aN, b, bN)).toBe(a.lt(b));
  expect(isAbove(a, aN, b, bN)).toBe(a.gt(b));
  expect(isAtLeast(a, aN, b, bN)).toBe(a.gte(b));
  expect(isAtMost(a, aN, b, bN)).toBe(a.lte(b));
  expect(differs(a, aN, b, bN)).toBe(!a.eq(b));
}

describe('exact comparisons on doubles first', () => {
  it('answer <, >, >=, <= and != as decimal.js does, however close or far apart the values', () => {
    fc.assert(
      fc.property(decimalPairs(), ([a, b]) => {
        expectDecimalAnswers(a, asNumber(a), b, asNumber(b));
        expectDecimalAnswers(b, asNumber(b), a, asNumber(a));
      }),
      { numRuns: 5000 },
    );
  });

  it('answer as decimal.js does for every pair of zeros, NaN, infinities and values past the doubles', () => {
    for (const a of EDGE_DECIMALS) {
      for (const b of EDGE_DECIMALS) expectDecimalAnswers(a, asNumber(a), b, asNumber(b));
    }
  });

  it('decide on the doubles given when they are ordered, and leave NaN or equal doubles to decimal.js', () => {
    // A market order's price double is NaN while its Decimal is 0: the Decimals decide then.
    const double = fc.oneof(fc.double(), fc.constantFrom(Number.NaN, -0, 0));
    fc.assert(
      fc.property(decimalPairs(), double, double, ([a, b], aN, bN) => {
        const ordered = aN < bN || aN > bN;
        expect(isBelow(a, aN, b, bN)).toBe(ordered ? aN < bN : a.lt(b));
        expect(isAbove(a, aN, b, bN)).toBe(ordered ? aN > bN : a.gt(b));
        expect(isAtLeast(a, aN, b, bN)).toBe(ordered ? aN > bN : a.gte(b));
        expect(isAtMost(a, aN, b, bN)).toBe(ordered ? aN < bN : a.lte(b));
        expect(differs(a, aN, b, bN)).toBe(ordered || !a.eq(b));
      }),
      { numRuns: 5000 },
    );
  });

  it('hold neither a >= NaN nor a < NaN, so "at least" is not "not below" when a bound is NaN', () => {
    const nan = D(Number.NaN);
    for (const a of [D(1), D(0), D(Number.POSITIVE_INFINITY), nan]) {
      expect(isAtLeast(a, asNumber(a), nan, Number.NaN)).toBe(false);
      expect(isBelow(a, asNumber(a), nan, Number.NaN)).toBe(false);
      expect(isAtMost(a, asNumber(a), nan, Number.NaN)).toBe(false);
      expect(isAbove(a, asNumber(a), nan, Number.NaN)).toBe(false);
      expect(differs(a, asNumber(a), nan, Number.NaN)).toBe(true);
    }
  });
});
