/**
 * Equity read on numbers, with how far the exact (Decimal) equity may lie from it: enough for a
 * decision that stays the same anywhere in `value ± error` (e.g. how many whole lots a fraction
 * of equity buys) to skip the Decimal equity.
 */
export interface EquityEstimate {
  /** The equity on numbers, in the settlement currency. */
  readonly value: number;
  /** A bound of |exact equity - value|: generous, never too small. */
  readonly error: number;
}

/**
 * Relative bound on the float rounding of the few operations an estimate sums: each term is a
 * product of at most three doubles that are each within 2^-53 of their Decimal, so a term is off
 * by a few 2^-53 of its size, and the sum by that much of the sum of the terms' sizes (plus one
 * rounding per addition). 1e-12 leaves a factor of a thousand to spare.
 */
export const ESTIMATE_ROUNDING = 1e-12;
