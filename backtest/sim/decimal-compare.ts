import type { Dec } from '../../core/model/index.ts';
import { isAboveZero, ZERO } from '../../core/model/index.ts';

/*
 * Comparisons of Decimals that decide on their number mirrors when those differ, and compare the
 * Decimals only when they are equal. Rounding to the nearest double never reverses an order (a < b
 * gives round(a) <= round(b)), so differing mirrors order their Decimals the same way. A decimal.js
 * comparison copies its argument first, which made these the costliest checks of the order path.
 */

/**
 * a < b, decided on the numbers when they differ.
 * @param a - a Decimal
 * @param aN - `asNumber(a)`
 * @param b - a Decimal
 * @param bN - `asNumber(b)`
 * @returns the same as `a.lt(b)`
 */
export function isBelow(a: Dec, aN: number, b: Dec, bN: number): boolean {
  return aN !== bN && !Number.isNaN(aN) && !Number.isNaN(bN) ? aN < bN : a.lt(b);
}

/**
 * a > b, decided on the numbers when they differ.
 * @param a - a Decimal
 * @param aN - `asNumber(a)`
 * @param b - a Decimal
 * @param bN - `asNumber(b)`
 * @returns the same as `a.gt(b)`
 */
export function isAbove(a: Dec, aN: number, b: Dec, bN: number): boolean {
  return aN !== bN && !Number.isNaN(aN) && !Number.isNaN(bN) ? aN > bN : a.gt(b);
}

/**
 * a != b, decided on the numbers when they differ.
 * @param a - a Decimal
 * @param aN - `asNumber(a)`
 * @param b - a Decimal
 * @param bN - `asNumber(b)`
 * @returns the same as `!a.eq(b)`
 */
export function differs(a: Dec, aN: number, b: Dec, bN: number): boolean {
  return aN !== bN && !Number.isNaN(aN) && !Number.isNaN(bN) ? true : !a.eq(b);
}

/**
 * The smaller of two Decimals, without the copies `Decimal.min` makes of both.
 * @param a - a Decimal
 * @param b - a Decimal
 * @returns the same value as `Decimal.min(a, b)`: of two equal values b unless a is negative (so
 *   of two zeros a negative one)
 */
export function smallerOf(a: Dec, b: Dec): Dec {
  const order = a.cmp(b);
  return order > 0 || (order === 0 && a.s === 1) ? b : a;
}

/**
 * A Decimal floored at zero, without the copies `Decimal.max` makes.
 * @param value - a Decimal
 * @returns value when above zero, else zero: the same value as `Decimal.max(0, value)`
 */
export function atLeastZero(value: Dec): Dec {
  return isAboveZero(value) ? value : ZERO;
}

/**
 * A Decimal raised to zero when negative, without the copies `Decimal.max` makes.
 * @param value - a Decimal
 * @returns the same value as `Decimal.max(value, 0)`: value unless negative, zero then (a negative
 *   zero too)
 */
export function notBelowZero(value: Dec): Dec {
  return value.isNegative() ? ZERO : value;
}
