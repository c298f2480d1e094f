/**
 * The few sample statistics the metrics need, on plain numbers. Each returns null where the
 * statistic is not defined (too few values), never NaN.
 */

/**
 * Arithmetic mean.
 * @param values - the sample
 * @returns Σx / n, or null for an empty sample
 */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/**
 * Sample standard deviation (Bessel's correction, ddof = 1, as pandas' `std()`).
 * @param values - the sample
 * @returns sqrt(Σ(x - mean)² / (n - 1)), or null for fewer than two values
 */
export function sampleStdDev(values: readonly number[]): number | null {
  const m = mean(values);
  if (m === null || values.length < 2) return null;
  let squares = 0;
  for (const v of values) squares += (v - m) * (v - m);
  return Math.sqrt(squares / (values.length - 1));
}

/**
 * Geometric mean return of simple returns, as backtesting.py's `geometric_mean`.
 * @param returns - simple returns (0.1 = +10 %)
 * @returns (Π(1 + r))^(1/n) - 1, or null when empty or when some r <= -1 (a total loss has no
 *   geometric mean; backtesting.py's returns 0 there)
 */
export function geometricMeanReturn(returns: readonly number[]): number | null {
  if (returns.length === 0) return null;
  let logSum = 0;
  for (const r of returns) {
    if (r <= -1) return null;
    logSum += Math.log1p(r);
  }
  return Math.expm1(logSum / returns.length);
}

/**
 * Turns a number that may be non-finite into a defined value.
 * @param value - a computed ratio
 * @returns the value, or null when it is NaN or infinite
 */
export function finiteOrNull(value: number | null): number | null {
  return value === null || !Number.isFinite(value) ? null : value;
}

/** Relative size under which a spread is float noise, see {@link isNegligibleSpread}. */
const NEGLIGIBLE_SPREAD = 1e-12;

/**
 * Whether a spread (a standard or downside deviation) is float noise rather than variation
 * (Keel's choice): returns that are all equal in exact arithmetic, e.g. 100 x 1.01^k, come out
 * of floats with a std near 1e-16 of their size, and a ratio over it is a meaningless 1e15.
 * @param spread - the deviation
 * @param scale - the largest magnitude among the values it was taken from
 * @returns spread <= 1e-12 x max(scale, 1e-12)
 */
export function isNegligibleSpread(spread: number, scale: number): boolean {
  return spread <= NEGLIGIBLE_SPREAD * Math.max(scale, NEGLIGIBLE_SPREAD);
}

/**
 * Largest magnitude of a sample.
 * @param values - the sample
 * @returns max |x|, 0 for an empty sample
 */
export function maxAbs(values: readonly number[]): number {
  let most = 0;
  for (const v of values) most = Math.max(most, Math.abs(v));
  return most;
}
