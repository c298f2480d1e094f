import type { Dec } from '../../core/model/index.ts';
import { isAboveZero, ZERO } from '../../core/model/index.ts';

/*
 * Decimal.min and Decimal.max of the order path without the copies decimal.js makes of both
 * arguments. The exact comparisons that decide on doubles first live in core/model.
 */

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
