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
 *   geometric mean)
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
