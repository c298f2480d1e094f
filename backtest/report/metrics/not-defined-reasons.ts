import { DAY_MS } from './annualization.ts';
import type { BacktestMetrics } from './backtest-metrics.ts';

/** The metrics that are null when they are not defined for a run. */
export type NullableMetric = {
  [K in keyof BacktestMetrics]-?: null extends BacktestMetrics[K] ? K : never;
}[keyof BacktestMetrics];

const NO_TRADES = 'no closed trades';
const SHORT_RUN = 'the run is shorter than a day';
const NO_LOSING_TRADES = 'no losing trades';
const NO_DRAWDOWN = 'no drawdown';
const NONE_BELOW_RISK_FREE = 'no period below the risk-free rate';
const TOO_LARGE = 'too large to state';
const STEADY_ABOVE_RISK_FREE = 'zero volatility: every period returned the same, above the risk-free rate';
const NO_LIQUIDATION = 'no liquidation';

/**
 * The reasons that say a metric is n/a because the run is unbeaten on it: no losing trade (profit
 * factor, Kelly), no drawdown (Calmar), no period below the risk-free rate (Sortino), a ratio too
 * large to state (Sharpe, CAGR), a steady return above the risk-free rate (Sharpe over zero
 * volatility), no liquidation (the first one's time). A table ranking runs by
 * the metric puts such a run first; any other n/a (no trades, a run too short, a ratio that is
 * 0 / 0 because nothing was won: every trade broke even, equity never moved, every period
 * returned the risk-free rate) says nothing of how good it is.
 */
export const UNBEATEN_REASONS: ReadonlySet<string> = new Set([
  NO_LOSING_TRADES,
  NO_DRAWDOWN,
  NONE_BELOW_RISK_FREE,
  TOO_LARGE,
  STEADY_ABOVE_RISK_FREE,
  NO_LIQUIDATION,
]);

/** Why the returns are not annualized (the figures built on them are then not defined), if they are not. */
function notAnnualized(m: BacktestMetrics): string | undefined {
  if (m.annualization.periodsPerYear !== null) return undefined;
  return `not annualized: ${m.durationMs < DAY_MS ? SHORT_RUN : 'the equity curve has too few samples for a return'}`;
}

/** Why a figure on the period returns is not defined before its own reason: not annualized, or ruin. */
function returnsProblem(m: BacktestMetrics): string | undefined {
  return notAnnualized(m) ?? (m.annualization.ruinTs === undefined ? undefined : 'equity reached zero');
}

/**
 * How the annualized return compares with the risk-free rate compounded over the periods (rf / P
 * each): 0 when every period returned the risk-free rate, exactly so for the usual flat curve at
 * rf = 0; null when the returns are not annualized.
 */
function overRiskFree(m: BacktestMetrics): number | null {
  const p = m.annualization.periodsPerYear;
  if (p === null || m.annualizedReturn === null) return null;
  return Math.sign(m.annualizedReturn - ((1 + m.annualization.riskFreeRate / p) ** p - 1));
}

/**
 * Whether every period return was the risk-free rate, given none was below it (Sortino null):
 * Sortino is then 0 / 0 (mean excess return and downside deviation both 0).
 */
function everyPeriodAtRiskFree(m: BacktestMetrics): boolean {
  return overRiskFree(m) === 0;
}

/**
 * Sharpe's reason when the returns do not vary: unbeaten when that steady return is above the
 * risk-free rate (a positive excess over zero volatility), else nothing to rank by (0 / 0, or a
 * steady loss against it).
 */
function zeroVolatilityReason(m: BacktestMetrics): string {
  return overRiskFree(m) === 1 ? STEADY_ABOVE_RISK_FREE : 'zero volatility: the returns do not vary';
}

function cagrReason(m: BacktestMetrics): string {
  if (m.durationMs < DAY_MS) return SHORT_RUN;
  if (m.equityStart.lte(0)) return 'the starting equity is not positive';
  return m.equityFinal.lt(0) ? 'the final equity is below zero' : TOO_LARGE;
}

/** Each nullable metric's reason, tried when the metric is null; the first that applies. */
const REASONS: Readonly<Record<NullableMetric, (m: BacktestMetrics) => string>> = {
  totalReturn: () => 'the starting equity is 0',
  buyAndHoldReturn: () => 'no price series to buy and hold',
  annualizedReturn: (m) => notAnnualized(m) ?? 'no returns',
  annualizedVolatility: (m) => returnsProblem(m) ?? 'fewer than two returns',
  cagr: cagrReason,
  sharpe: (m) =>
    returnsProblem(m) ??
    (m.annualizedVolatility === null
      ? 'fewer than two returns'
      : m.annualizedVolatility === 0
        ? zeroVolatilityReason(m)
        : TOO_LARGE),
  sortino: (m) =>
    returnsProblem(m) ??
    (everyPeriodAtRiskFree(m) ? 'every period returned the risk-free rate' : NONE_BELOW_RISK_FREE),
  // Calmar is null only without a drawdown; a CAGR of 0 then means equity never moved (0 / 0).
  calmar: (m) =>
    m.cagr === null ? `CAGR is n/a: ${cagrReason(m)}` : m.cagr === 0 ? 'equity never moved' : NO_DRAWDOWN,
  winRate: () => NO_TRADES,
  bestTrade: () => NO_TRADES,
  worstTrade: () => NO_TRADES,
  avgTrade: (m) => (m.tradeCount === 0 ? NO_TRADES : 'a trade lost its whole entry notional'),
  maxTradeDurationMs: () => NO_TRADES,
  avgTradeDurationMs: () => NO_TRADES,
  // Profit factor is null only without a losing trade; a win rate of 0 then means no winner either.
  profitFactor: (m) =>
    m.tradeCount === 0 ? NO_TRADES : m.winRate === 0 ? 'every trade broke even' : NO_LOSING_TRADES,
  expectancy: () => NO_TRADES,
  sqn: (m) =>
    m.tradeCount === 0
      ? NO_TRADES
      : m.tradeCount < 2
        ? 'fewer than two trades'
        : 'every trade had the same PnL',
  kelly: (m) => (m.tradeCount === 0 ? NO_TRADES : m.winRate === 0 ? 'no winning trades' : NO_LOSING_TRADES),
  turnoverRatio: () => 'the mean equity is not positive',
  firstLiquidationTs: () => NO_LIQUIDATION,
};

/**
 * Why a metric is not defined for a run, read from the metrics alone (so a report rebuilt from
 * result.json says it too): the run too short to annualize, too few returns, returns that do not
 * vary, no trades, no losing trade...
 * @param metric - a metric that is null for the run
 * @param m - the run's metrics
 * @returns a short phrase, e.g. `not annualized: the run is shorter than a day`
 * @example
 * // a 4-hour run: whyNotDefined('sharpe', m) is 'not annualized: the run is shorter than a day'
 */
export function whyNotDefined(metric: NullableMetric, m: BacktestMetrics): string {
  return REASONS[metric](m);
}

/**
 * Why each metric that is null for a run is not defined (see {@link whyNotDefined}), for a table
 * of many runs (a sweep's) that says each reason once.
 * @param m - the run's metrics
 * @returns the reason of each null metric, by name; empty when every metric is defined
 */
export function notDefinedReasons(m: BacktestMetrics): Partial<Record<NullableMetric, string>> {
  const out: Partial<Record<NullableMetric, string>> = {};
  for (const metric of Object.keys(REASONS) as NullableMetric[])
    if (m[metric] === null) out[metric] = whyNotDefined(metric, m);
  return out;
}
