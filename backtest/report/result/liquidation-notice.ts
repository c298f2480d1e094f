import { formatMoney, formatTime } from '../html/format-values.ts';
import type { BacktestResult } from './backtest-result.ts';

/**
 * The warning a run's summary and report show when the account was liquidated: how often, when
 * first, what the liquidation orders closed and cost, and the equity left (below zero: the
 * account owes the venue). The same sentence in the CLI summary, the session summary and the
 * HTML report, so a liquidated run never reads as a clean one.
 * @param result - the result (its liquidation records, or for an older file its metrics)
 * @param settleAsset - the currency money is in, for the text; none when empty
 * @returns the sentence, or undefined when the account was not liquidated (or the result does not say)
 */
export function liquidationNotice(
  result: Pick<BacktestResult, 'liquidations' | 'metrics'>,
  settleAsset = '',
): string | undefined {
  const liquidations = result.liquidations ?? [];
  const count = result.metrics.liquidationCount ?? liquidations.length;
  if (count === 0) return undefined;
  const money = (amount: Parameters<typeof formatMoney>[0]) =>
    `${formatMoney(amount)}${settleAsset === '' ? '' : ` ${settleAsset}`}`;
  const first = result.metrics.firstLiquidationTs ?? liquidations[0]?.ts;
  const fills = result.metrics.liquidationFills ?? liquidations.reduce((n, l) => n + l.fills.length, 0);
  const fees = result.metrics.liquidationFees;
  const last = liquidations[liquidations.length - 1];
  const after = last?.equityAfter;
  return [
    `The account was LIQUIDATED ${count === 1 ? 'once' : `${count} times`}`,
    first === undefined || first === null ? '' : ` (first at ${formatTime(first)})`,
    `: equity fell below maintenance margin and the venue closed positions with ${fills} liquidation order${fills === 1 ? '' : 's'}`,
    fees === undefined ? '' : `, paying ${money(fees)} in liquidation fees`,
    after === undefined
      ? '.'
      : `; equity after it ${money(after)}${after.isNegative() ? ' (below zero: the account owes more than it holds)' : ''}.`,
    ' The figures below include the forced closes.',
  ].join('');
}
