import type { Dec } from './decimal.ts';

/*
 * Exact comparisons of Decimals that decide on their nearest doubles first. A decimal.js comparison
 * copies its argument into a new Decimal (~100-300 ns), which made these the costliest checks of
 * the risk gate and the simulated venue's order path. Rounding to the nearest double never
 * reverses an order (a < b gives round(a) <= round(b)), so two different doubles already decide;
 * only when they are the same double (equal, or too close to tell, or both infinite) or one is NaN
 * (no order) does decimal.js decide, so every answer is decimal.js's own, NaN and infinities
 * included. The caller passes the doubles: the simulated venue keeps them next to its Decimals.
 */

/**
 * `a < b` as decimal.js answers it (`a.lt(b)`), decided on the doubles when they differ.
 * @param a - a Decimal
 * @param aN - `asNumber(a)`
 * @param b - a Decimal
 * @param bN - `asNumber(b)`
 * @returns whether a is below b (false when either is NaN)
 */
export function isBelow(a: Dec, aN: number, b: Dec, bN: number): boolean {
  if (aN < bN) return true;
  if (aN > bN) return false;
  return a.lt(b);
}

/**
 * `a > b` as decimal.js answers it (`a.gt(b)`), decided on the doubles when they differ.
 * @param a - a Decimal
 * @param aN - `asNumber(a)`
 * @param b - a Decimal
 * @param bN - `asNumber(b)`
 * @returns whether a is above b (false when either is NaN)
 */
export function isAbove(a: Dec, aN: number, b: Dec, bN: number): boolean {
  if (aN > bN) return true;
  if (aN < bN) return false;
  return a.gt(b);
}

/**
 * `a >= b` as decimal.js answers it (`a.gte(b)`), decided on the doubles when they differ. Not
 * `!isBelow`: with a NaN neither holds.
 * @param a - a Decimal
 * @param aN - `asNumber(a)`
 * @param b - a Decimal
 * @param bN - `asNumber(b)`
 * @returns whether a is at least b (false when either is NaN)
 */
export function isAtLeast(a: Dec, aN: number, b: Dec, bN: number): boolean {
  if (aN > bN) return true;
  if (aN < bN) return false;
  return a.gte(b);
}

/**
 * `a <= b` as decimal.js answers it (`a.lte(b)`), decided on the doubles when they differ. Not
 * `!isAbove`: with a NaN neither holds.
 * @param a - a Decimal
 * @param aN - `asNumber(a)`
 * @param b - a Decimal
 * @param bN - `asNumber(b)`
 * @returns whether a is at most b (false when either is NaN)
 */
export function isAtMost(a: Dec, aN: number, b: Dec, bN: number): boolean {
  if (aN < bN) return true;
  if (aN > bN) return false;
  return a.lte(b);
}

/**
 * `a != b` as decimal.js answers it (`!a.eq(b)`), decided on the doubles when they differ.
 * @param a - a Decimal
 * @param aN - `asNumber(a)`
 * @param b - a Decimal
 * @param bN - `asNumber(b)`
 * @returns whether a and b differ (true when either is NaN)
 */
export function differs(a: Dec, aN: number, b: Dec, bN: number): boolean {
  return aN < bN || aN > bN || !a.eq(b);
}
