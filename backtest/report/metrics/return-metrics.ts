import { DAY_MS, YEAR_MS } from './annualization.ts';
import {
  finiteOrNull,
  geometricMeanReturn,
  isNegligibleSpread,
  maxAbs,
  mean,
  sampleStdDev,
} from './sample-statistics.ts';

/**
 * Total return over the run.
 * @param startEquity - equity of the first sample
 * @param finalEquity - equity of the last sample
 * @returns final / start - 1 (0.1 = +10 %); null when the start equity is 0 (not defined)
 */
export function totalReturn(startEquity: number, finalEquity: number): number | null {
  return startEquity === 0 ? null : finiteOrNull(finalEquity / startEquity - 1);
}

/**
 * Annualized return from period returns, compounding the geometric mean (backtesting.py).
 * @param returns - period returns
 * @param periodsPerYear - periods per year
 * @returns (1 + gmean(r))^P - 1; -1 when some r <= -1 (equity reached zero: a total loss, as
 *   CAGR has it, where backtesting.py's geometric mean falls back to 0 and so shows 0); null
 *   without returns
 */
export function annualizedReturn(returns: readonly number[], periodsPerYear: number | null): number | null {
  if (returns.length === 0 || periodsPerYear === null) return null;
  if (hasTotalLoss(returns)) return -1;
  const g = geometricMeanReturn(returns);
  if (g === null) return null;
  return finiteOrNull((1 + g) ** periodsPerYear - 1);
}

/**
 * Whether a period lost everything (r <= -1: equity reached zero or below). Returns off such an
 * equity mean nothing, so volatility, Sharpe and Sortino are not defined once one is there.
 */
function hasTotalLoss(returns: readonly number[]): boolean {
  return returns.some((r) => r <= -1);
}

/**
 * Annualized volatility (QuantStats' `volatility`). backtesting.py's "Volatility (Ann.)" is
 * another figure, the spread of a compounded year, sqrt((var(r) + (1 + g)²)^P - (1 + g)^(2P))
 * with g the geometric mean return; Keel reports the simple form, the one its Sharpe divides by.
 * @param returns - period returns
 * @param periodsPerYear - periods per year
 * @returns std(r, ddof 1) x sqrt(P), or null with fewer than two returns or a return <= -1
 *   (equity reached zero); 0 when the std is only float noise ({@link isNegligibleSpread}
 *   against the largest |r|)
 */
export function annualizedVolatility(
  returns: readonly number[],
  periodsPerYear: number | null,
): number | null {
  const sd = sampleStdDev(returns);
  if (sd === null || periodsPerYear === null || hasTotalLoss(returns)) return null;
  if (isNegligibleSpread(sd, maxAbs(returns))) return 0;
  return sd * Math.sqrt(periodsPerYear);
}

/**
 * Compound annual growth rate over calendar time, in 365-day years (Keel's choice). QuantStats'
 * current `cagr` counts years as the number of return observations / periods per year instead,
 * so the two differ when the curve has gaps or partial periods; backtesting.py's counts them as
 * calendar days / its trading days a year, so it agrees with this one at 365 and not at 252.
 * @param startEquity - equity of the first sample
 * @param finalEquity - equity of the last sample
 * @param durationMs - end - start
 * @returns (final / start)^(1 / years) - 1 with years = duration / 365 days; -1 when the final
 *   equity is 0; null for a run shorter than a day (compounding minutes into a year says
 *   nothing), a non-positive start or a negative final equity
 */
export function cagr(startEquity: number, finalEquity: number, durationMs: number): number | null {
  if (durationMs < DAY_MS || startEquity <= 0 || finalEquity < 0) return null;
  return finiteOrNull((finalEquity / startEquity) ** (YEAR_MS / durationMs) - 1);
}

/**
 * Sharpe ratio (QuantStats' `sharpe`): excess mean return over its standard deviation,
 * annualized by sqrt(P). The risk-free rate per period is rf / P (Keel's choice); QuantStats
 * de-annualizes it geometrically, (1 + rf)^(1/P) - 1, so with rf != 0 the two differ slightly.
 * backtesting.py's Sharpe is another figure: its compounded annualized return
 * ({@link annualizedReturn}) less rf, over its compounded volatility (see
 * {@link annualizedVolatility}).
 * @param returns - period returns
 * @param periodsPerYear - periods per year
 * @param riskFreeRate - annual risk-free rate, spread evenly over the periods (rf / P each)
 * @returns (mean(r) - rf / P) / std(r, ddof 1) x sqrt(P), or null when the std is undefined, 0
 *   or only float noise ({@link isNegligibleSpread} against the largest |r|), or when a return
 *   is <= -1 (equity reached zero)
 */
export function sharpeRatio(
  returns: readonly number[],
  periodsPerYear: number | null,
  riskFreeRate = 0,
): number | null {
  const m = mean(returns);
  const sd = sampleStdDev(returns);
  if (m === null || sd === null || periodsPerYear === null || hasTotalLoss(returns)) return null;
  if (isNegligibleSpread(sd, maxAbs(returns))) return null;
  return finiteOrNull(((m - riskFreeRate / periodsPerYear) / sd) * Math.sqrt(periodsPerYear));
}

/**
 * Sortino ratio (QuantStats' `sortino`): mean excess return over the downside deviation of the
 * excess returns, which counts every period (one at or above the risk-free rate contributes 0),
 * annualized by sqrt(P). As in QuantStats the risk-free rate comes off every return before both.
 * backtesting.py's divides its compounded annualized return less rf by the downside deviation of
 * the raw returns x sqrt(P) instead.
 * @param returns - period returns
 * @param periodsPerYear - periods per year
 * @param riskFreeRate - annual risk-free rate, spread evenly over the periods as for
 *   {@link sharpeRatio} (rf / P each)
 * @returns mean(x) / sqrt(Σ min(x, 0)² / n) x sqrt(P) with x = r - rf / P, or null without a
 *   period below the risk-free rate, when the downside deviation is only float noise
 *   ({@link isNegligibleSpread} against the largest |r| and rf / P), or when a return is <= -1
 *   (equity reached zero)
 */
export function sortinoRatio(
  returns: readonly number[],
  periodsPerYear: number | null,
  riskFreeRate = 0,
): number | null {
  if (periodsPerYear === null || hasTotalLoss(returns)) return null;
  const perPeriod = riskFreeRate / periodsPerYear;
  const m = mean(returns);
  if (m === null) return null;
  let downside = 0;
  for (const r of returns) {
    const x = r - perPeriod;
    if (x < 0) downside += x * x;
  }
  const deviation = Math.sqrt(downside / returns.length);
  if (isNegligibleSpread(deviation, Math.max(maxAbs(returns), Math.abs(perPeriod)))) return null;
  return finiteOrNull(((m - perPeriod) / deviation) * Math.sqrt(periodsPerYear));
}

/**
 * Calmar ratio (QuantStats' `calmar`). backtesting.py's divides its annualized return
 * ({@link annualizedReturn}) by the max drawdown instead of CAGR. The max drawdown is Keel's, taken
 * on every equity sample as backtesting.py takes it on every bar; QuantStats takes it on the
 * curve compounded from the period returns, which misses a fall recovered within a period, so
 * its drawdown can be shallower and its Calmar larger.
 * @param cagrValue - compound annual growth rate
 * @param maxDrawdown - maximum drawdown as a positive fraction
 * @returns CAGR / max drawdown, or null when either is undefined or the drawdown is 0
 */
export function calmarRatio(cagrValue: number | null, maxDrawdown: number): number | null {
  if (cagrValue === null || maxDrawdown === 0) return null;
  return finiteOrNull(cagrValue / maxDrawdown);
}
