import { computeMetrics } from '../../backtest/report/index.ts';
import { closestKey } from '../../core/kernel/closest-key.ts';
import { D } from '../../core/model/index.ts';
import { numericMetrics } from './sweep-task.ts';

let names: readonly string[] | undefined;

/**
 * Metrics where less is better: drawdowns, volatility and what the run paid. A sweep sorted by one
 * of them lists the lowest first. Every other metric lists the highest first (for the neutral ones,
 * such as tradeCount or turnover, that is simply descending).
 */
const LOWER_IS_BETTER: ReadonlySet<string> = new Set([
  'maxDrawdown',
  'avgDrawdown',
  'maxDrawdownDurationMs',
  'avgDrawdownDurationMs',
  'annualizedVolatility',
  'feesPaid',
  'fundingPaid',
  'interestPaid',
  'liquidationCount',
  'liquidationFills',
  'liquidationFees',
]);

/**
 * Whether a sweep sorted by a metric lists its lowest value first.
 * @param metric - a name from {@link sweepMetricNames}
 * @returns true for drawdowns (depths are positive fractions), volatility and costs
 */
export function lowerIsBetter(metric: string): boolean {
  return LOWER_IS_BETTER.has(metric);
}

/**
 * The metrics a sweep can sort by: every numeric metric of a backtest result, nested groups as
 * `group.key`, the names a sweep row carries. Taken from the metrics of a two-sample run that
 * falls, with no cash flows and no liquidation (a backtest always reports both), so the list
 * follows `computeMetrics` without a copy to keep in step. A row of a run that never fell lacks
 * `maxDrawdownTs`: it is n/a there.
 * @returns the names, in the result's order
 */
export function sweepMetricNames(): readonly string[] {
  names ??= Object.keys(
    numericMetrics(
      computeMetrics({
        // A fall, so the drawdown's own figures (maxDrawdownTs) are among the names.
        equityCurve: [
          { ts: 0, equity: D(1) },
          { ts: 1, equity: D('0.5') },
        ],
        trades: [],
        fills: [],
        cashFlows: [],
        liquidations: [],
      }),
    ),
  );
  return names;
}

/**
 * Checks a `--metric` name before any backtest runs, so a typo fails in a second, not after the
 * whole grid.
 * @param metric - the name given
 * @returns the sentence saying what is wrong (with a did-you-mean when one is close), or undefined when it is a metric
 */
export function sweepMetricProblem(metric: string): string | undefined {
  const known = sweepMetricNames();
  if (known.includes(metric)) return undefined;
  const suggestion = closestKey(metric, known);
  const hint = suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`;
  return `--metric ${metric} is not a result metric${hint}; the metrics: ${known.join(', ')}`;
}
