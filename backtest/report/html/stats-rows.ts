import { NOT_ANNUALIZED } from '../metrics/annualization.ts';
import type { BacktestMetrics } from '../metrics/backtest-metrics.ts';
import type { BuyAndHoldBasis, BuyAndHoldBenchmark } from '../metrics/buy-and-hold.ts';
import type { LoanTotals } from '../metrics/cash-flow-metrics.ts';
import { whyNotDefined } from '../metrics/not-defined-reasons.ts';
import {
  formatDuration,
  formatMoney,
  formatPercent,
  formatRatio,
  formatTime,
  withWhyNotDefined,
} from './format-values.ts';

/** Nullable metrics shown as percents. */
type PercentMetric =
  | 'totalReturn'
  | 'buyAndHoldReturn'
  | 'annualizedReturn'
  | 'annualizedVolatility'
  | 'cagr'
  | 'winRate'
  | 'bestTrade'
  | 'worstTrade'
  | 'avgTrade'
  | 'expectancy';

/** Nullable metrics shown as plain ratios. */
type RatioMetric = 'sharpe' | 'sortino' | 'calmar' | 'profitFactor' | 'sqn' | 'kelly' | 'turnoverRatio';

/** One row of the stats table: backtesting.py's label, the value, and how it was computed. */
export interface StatsRow {
  readonly label: string;
  readonly value: string;
  readonly definition: string;
}

/**
 * The stats table of the report, in backtesting.py's order and words, each row saying how
 * it was computed (the formulas live on the metric functions; this is their one-line summary),
 * and a figure that is not defined for the run saying why (`n/a (no closed trades)`).
 * @param m - the metrics
 * @param settleAsset - the currency money is shown in (for labels)
 * @param loans - the run's loan principal per coin (from `loanTotals`); a row each, after Interest Paid
 * @returns the rows
 */
export function statsRows(
  m: BacktestMetrics,
  settleAsset = '',
  loans: readonly LoanTotals[] = [],
): StatsRow[] {
  const money = settleAsset === '' ? '' : ` [${settleAsset}]`;
  const ann = m.annualization;
  const pct = (metric: PercentMetric) =>
    withWhyNotDefined(formatPercent(m[metric]), () => whyNotDefined(metric, m));
  const ratio = (metric: RatioMetric) =>
    withWhyNotDefined(formatRatio(m[metric]), () => whyNotDefined(metric, m));
  const duration = (metric: 'maxTradeDurationMs' | 'avgTradeDurationMs') =>
    withWhyNotDefined(formatDuration(m[metric]), () => whyNotDefined(metric, m));
  const basis =
    ann.periodsPerYear === null
      ? NOT_ANNUALIZED
      : `${ann.period === 'day' ? 'daily' : 'per-sample'} returns, ${ann.periodsPerYear.toFixed(1)} periods a year (${ann.tradingDaysPerYear} trading days${ann.period === 'sample' && ann.tradingHours === 'us-equity' ? ' of the 6.5 h US equity session: nights and weekends are no periods' : ''})`;
  return [
    { label: 'Start', value: formatTime(m.start), definition: 'first equity sample' },
    { label: 'End', value: formatTime(m.end), definition: 'last equity sample' },
    { label: 'Duration', value: formatDuration(m.durationMs), definition: 'end - start' },
    {
      label: 'Exposure Time [%]',
      value: formatPercent(m.exposureTime),
      definition: 'time with a position open / duration',
    },
    { label: `Equity Start${money}`, value: formatMoney(m.equityStart), definition: 'starting equity' },
    {
      label: `Equity Final${money}`,
      value: formatMoney(m.equityFinal),
      definition: 'cash + positions marked to market at the end',
    },
    { label: `Equity Peak${money}`, value: formatMoney(m.equityPeak), definition: 'highest equity sample' },
    { label: 'Return [%]', value: pct('totalReturn'), definition: 'final / start - 1' },
    {
      label: 'Buy & Hold Return [%]',
      value: pct('buyAndHoldReturn'),
      definition: buyAndHoldDefinition(m.buyAndHoldBenchmark),
    },
    {
      label: 'Return (Ann.) [%]',
      value: pct('annualizedReturn'),
      definition: `(1 + geometric mean return)^P - 1; ${basis}`,
    },
    {
      label: 'Volatility (Ann.) [%]',
      value: pct('annualizedVolatility'),
      definition:
        "std(returns) x sqrt(P), as QuantStats (backtesting.py: a compounded year's spread, sqrt((var(r) + (1 + g)^2)^P - (1 + g)^(2P)))",
    },
    {
      label: 'CAGR [%]',
      value: pct('cagr'),
      definition: '(final / start)^(365 days / duration) - 1',
    },
    {
      label: 'Sharpe Ratio',
      value: ratio('sharpe'),
      definition: `(mean(r) - rf / P) / std(r) x sqrt(P), rf = ${formatPercent(ann.riskFreeRate)}, as QuantStats (backtesting.py: (Return (Ann.) - rf) / its compounded volatility)`,
    },
    {
      label: 'Sortino Ratio',
      value: ratio('sortino'),
      definition: `mean(x) / sqrt(mean(min(x, 0)^2)) x sqrt(P), x = r - rf / P, rf = ${formatPercent(ann.riskFreeRate)}, as QuantStats (backtesting.py: (Return (Ann.) - rf) / (sqrt(mean(min(r, 0)^2)) x sqrt(P)))`,
    },
    {
      label: 'Calmar Ratio',
      value: ratio('calmar'),
      definition:
        'CAGR / max drawdown, as QuantStats (backtesting.py: Return (Ann.) / max drawdown, the same where Return (Ann.) is CAGR, e.g. daily returns at P = 365)',
    },
    {
      label: 'Max. Drawdown [%]',
      value: formatPercent(-m.maxDrawdown),
      definition: 'largest fall from a running equity peak',
    },
    {
      label: 'Avg. Drawdown [%]',
      value: formatPercent(-m.avgDrawdown),
      definition: 'mean depth of the drawdown periods',
    },
    {
      label: 'Max. Drawdown Duration',
      value: formatDuration(m.maxDrawdownDurationMs),
      definition: 'longest time from a peak to its recovery (or the end)',
    },
    {
      label: 'Avg. Drawdown Duration',
      value: formatDuration(m.avgDrawdownDurationMs),
      definition: 'mean time from a peak to its recovery (or the end)',
    },
    {
      label: '# Trades',
      value: String(m.tradeCount),
      definition: 'closed round trips (FIFO per sym and position side)',
    },
    {
      label: 'Win Rate [%]',
      value: pct('winRate'),
      definition: 'trades with PnL > 0 / trades',
    },
    {
      label: 'Best Trade [%]',
      value: pct('bestTrade'),
      definition: 'highest trade return (PnL net of fees / entry notional)',
    },
    { label: 'Worst Trade [%]', value: pct('worstTrade'), definition: 'lowest trade return' },
    { label: 'Avg. Trade [%]', value: pct('avgTrade'), definition: 'geometric mean trade return' },
    {
      label: 'Max. Trade Duration',
      value: duration('maxTradeDurationMs'),
      definition: 'longest exit - entry',
    },
    {
      label: 'Avg. Trade Duration',
      value: duration('avgTradeDurationMs'),
      definition: 'mean exit - entry',
    },
    {
      label: 'Profit Factor',
      value: ratio('profitFactor'),
      definition:
        'gross profit / gross loss of trades, in money net of fees (backtesting.py: of trade returns)',
    },
    {
      label: 'Expectancy [%]',
      value: pct('expectancy'),
      definition: 'arithmetic mean trade return',
    },
    { label: 'SQN', value: ratio('sqn'), definition: 'sqrt(trades) x mean(PnL) / std(PnL)' },
    {
      label: 'Kelly Criterion',
      value: ratio('kelly'),
      definition: 'W - (1 - W) / (avg win / avg loss)',
    },
    { label: `Fees Paid${money}`, value: formatMoney(m.feesPaid), definition: 'fees - rebates of all fills' },
    ...cashFlowRows(m, money),
    ...loans.map(loanRow),
    { label: `Turnover${money}`, value: formatMoney(m.turnover), definition: 'traded notional of all fills' },
    {
      label: 'Turnover / Mean Equity',
      value: ratio('turnoverRatio'),
      definition: 'turnover / mean equity',
    },
  ];
}

/** One coin's loan principal: what the run borrowed, repaid and still owed at the end. */
function loanRow(loan: LoanTotals): StatsRow {
  return {
    label: `Loans [${loan.coin}]`,
    value: `borrowed ${formatMoney(loan.borrowed)}, repaid ${formatMoney(loan.repaid)}, owed ${formatMoney(loan.owed)}`,
    definition: 'margin-loan principal: BORROW and REPAY cash flows (interest is in Interest Paid)',
  };
}

/**
 * Funding, interest and liquidation rows, each shown when the result has the figure (result
 * files written before Keel recorded them do not).
 */
function cashFlowRows(m: BacktestMetrics, money: string): StatsRow[] {
  const rows: StatsRow[] = [];
  if (m.fundingPaid !== undefined)
    rows.push({
      label: `Funding Paid${money}`,
      value: formatMoney(m.fundingPaid),
      definition: 'perpetual funding paid - received (negative = net received)',
    });
  if (m.interestPaid !== undefined)
    rows.push({
      label: `Interest Paid${money}`,
      value: formatMoney(m.interestPaid),
      definition:
        'margin-loan interest charged in the account currency (a loan of another coin pays interest in that coin: see cash-flows.csv)',
    });
  if (m.liquidationCount !== undefined)
    rows.push({
      label: '# Liquidations',
      value:
        m.liquidationCount === 0 || m.firstLiquidationTs === null || m.firstLiquidationTs === undefined
          ? String(m.liquidationCount)
          : `${m.liquidationCount} (first ${formatTime(m.firstLiquidationTs)})`,
      definition: 'times equity fell below maintenance margin and the venue closed positions',
    });
  if (m.liquidationFees !== undefined)
    rows.push({
      label: `Liquidation Fees${money}`,
      value:
        m.liquidationCount === 0 || m.liquidationFills === undefined
          ? formatMoney(m.liquidationFees)
          : `${formatMoney(m.liquidationFees)} (${m.liquidationFills} fill${m.liquidationFills === 1 ? '' : 's'})`,
      definition: 'liquidation fees of the liquidation fills (also in Fees Paid)',
    });
  return rows;
}

/** Why the benchmark holds its syms, as the stats row says it. */
const BASIS_TEXT: Readonly<Record<BuyAndHoldBasis, readonly [one: string, several: string]>> = {
  traded: ['the sym the strategies traded', 'the syms the strategies traded'],
  named: [
    'the instrument the strategies name; they traded none',
    'the instruments the strategies name; they traded none',
  ],
  instruments: [
    "the run's instrument; the strategies traded and named none",
    "the run's instruments; the strategies traded and named none",
  ],
  recording: ["the data's first sym; the strategies traded and named none", ''],
};

/**
 * The buy & hold row's definition, naming the syms it was taken on (results written before Keel
 * named them have no benchmark: the row then says the formula only).
 * @param benchmark - the benchmark of the metrics
 * @returns e.g. `last / first price - 1 of BINANCE_PERP_BTC_USDT, the sym the strategies traded`
 */
function buyAndHoldDefinition(benchmark: BuyAndHoldBenchmark | undefined): string {
  if (benchmark === undefined) return 'last price / first price - 1';
  const [one, several] = BASIS_TEXT[benchmark.basis];
  const syms = benchmark.syms.join(', ');
  return benchmark.syms.length === 1
    ? `last / first price - 1 of ${syms}, ${one}`
    : `equal-weight basket: mean of last / first price - 1 over ${syms}, ${several}`;
}
