import { asNumber, type Dec } from '../model/index.ts';

// decimal.js compares by first copying its argument into a new Decimal (~100-300 ns per check,
// several checks per intent). Converting both sides to the nearest double is exact-rounded
// (asNumber) and rounding to nearest never reverses an order, so two different doubles already
// decide the comparison; only when both round to the same double (equal, or too close to tell)
// does the exact Decimal comparison run.

/**
 * `value >= bound`, exactly, without a Decimal comparison unless the two round to the same double.
 * @param value - the value
 * @param bound - the lower bound
 * @returns true when value is at least bound
 */
export function isAtLeast(value: Dec, bound: Dec): boolean {
  const x = asNumber(value);
  const y = asNumber(bound);
  if (x > y) return true;
  if (x < y) return false;
  return value.greaterThanOrEqualTo(bound);
}

/**
 * `value <= bound`, exactly, without a Decimal comparison unless the two round to the same double.
 * @param value - the value
 * @param bound - the upper bound
 * @returns true when value is at most bound
 */
export function isAtMost(value: Dec, bound: Dec): boolean {
  const x = asNumber(value);
  const y = asNumber(bound);
  if (x < y) return true;
  if (x > y) return false;
  return value.lessThanOrEqualTo(bound);
}
