import fc from 'fast-check';
import { D, type Dec } from '../../core/model/index.ts';

/**
 * Decimals that test the edges of comparing on doubles: zeros of both signs, NaN, the infinities,
 * values that round to 0 or to an infinite double (1e-400, 1e400), the largest and smallest
 * doubles and their neighbours, and integers around 2^53 where doubles stop counting by one.
 */
export const EDGE_DECIMALS: readonly Dec[] = [
  D(0),
  D('-0'),
  D(Number.NaN),
  D(Number.POSITIVE_INFINITY),
  D(Number.NEGATIVE_INFINITY),
  D('1e-400'),
  D('-1e-400'),
  D('1e400'),
  D('-1e400'),
  D('1.7976931348623157e308'),
  D('1.7976931348623158e308'),
  D('-1.7976931348623157e308'),
  D('5e-324'),
  D('4e-324'),
  D('2e-324'),
  D('9007199254740992'),
  D('9007199254740993'),
  D('-9007199254740993'),
  D('0.1'),
  D('0.30000000000000001'),
  D(1),
  D(-1),
];

/** Decimals of up to 40 significant digits, any sign, exponents from -340 to 310. */
const anyDecimal: fc.Arbitrary<Dec> = fc.oneof(
  fc
    .tuple(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: -40, max: 30 }))
    .map(([digits, exponent]) => D(`${digits}e${exponent}`)),
  fc
    .tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: -340, max: 310 }))
    .map(([digits, exponent]) => D(`${digits}e${exponent}`)),
  fc.integer({ min: -1000, max: 1000 }).map((n) => D(n).div(8)),
  fc.constantFrom(...EDGE_DECIMALS),
);

/**
 * Pairs of Decimals for exact comparisons: independent ones, equal ones, and near neighbours (a
 * nudge of 1e-30 to 1e-12 relative, too close for their doubles to tell apart, or just close enough).
 * @returns the pair arbitrary
 */
export function decimalPairs(): fc.Arbitrary<[Dec, Dec]> {
  const nudge = fc.constantFrom('0', '1e-30', '-1e-30', '1e-17', '-1e-17', '1e-16', '-1e-16', '1e-12');
  return fc.oneof(
    fc.tuple(anyDecimal, anyDecimal),
    anyDecimal.map((a): [Dec, Dec] => [a, D(a)]),
    fc.tuple(anyDecimal, nudge).map(([a, n]): [Dec, Dec] => [a, a.add(D(n).mul(a.abs().add(1)))]),
  );
}
