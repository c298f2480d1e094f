import { computeMetrics } from '../../backtest/report/index.ts';
import { D } from '../../core/model/index.ts';
import { closestKey } from '../loader/index.ts';
import { numericMetrics } from './sweep-task.ts';

let names: readonly string[] | undefined;

/**
 * The metrics a sweep can sort by: every numeric metric of a backtest result, nested groups as
 * `group.key`, the names a sweep row carries. Taken from the metrics of a one-sample run, so the
 * list follows `computeMetrics` without a copy to keep in step.
 * @returns the names, in the result's order
 */
export function sweepMetricNames(): readonly string[] {
  names ??= Object.keys(
    numericMetrics(computeMetrics({ equityCurve: [{ ts: 0, equity: D(1) }], trades: [], fills: [] })),
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
