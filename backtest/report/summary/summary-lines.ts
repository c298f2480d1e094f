import type { Dec } from '../../../core/model/index.ts';
import { formatMoney, formatPercent, formatRatio, withWhyNotDefined } from '../html/format-values.ts';
import type { BacktestMetrics } from '../metrics/backtest-metrics.ts';
import { loanTotals } from '../metrics/cash-flow-metrics.ts';
import { whyNotDefined } from '../metrics/not-defined-reasons.ts';
import type { BacktestResult } from '../result/backtest-result.ts';
import type { CashFlowRecord } from '../result/cash-flow-record.ts';

/** An amount with its currency, as a summary line writes it: `12.50 USDT`. */
function moneyIn(amount: Dec, asset: string): string {
  return `${formatMoney(amount)}${asset === '' ? '' : ` ${asset}`}`;
}

/**
 * The headline figures of a backtest's or a session's terminal summary, each written by the
 * formatter the HTML report's statistics use for it, so the two summaries and the report never
 * print the same figure two ways; a figure that is not defined says why.
 * @param result - the run's result
 * @param settle - the account currency; empty when unknown
 * @returns e.g. `  fills 14, trades 7, equity 10000.00 -> 11285.81 USDT (PnL +1285.81 USDT, return 12.86 %), sharpe 0.012`
 */
export function figuresLine(result: BacktestResult, settle: string): string {
  const m = result.metrics;
  const pnl = m.equityFinal.sub(m.equityStart);
  const ret = withWhyNotDefined(formatPercent(m.totalReturn), () => whyNotDefined('totalReturn', m));
  const sharpe = withWhyNotDefined(formatRatio(m.sharpe), () => whyNotDefined('sharpe', m));
  return (
    `  fills ${result.fills.length}, trades ${result.trades.length}, ` +
    `equity ${formatMoney(m.equityStart)} -> ${moneyIn(m.equityFinal, settle)} ` +
    `(PnL ${pnl.gt(0) ? '+' : ''}${moneyIn(pnl, settle)}, return ${ret}), sharpe ${sharpe}`
  );
}

/** Which of funding and interest a summary names even when they are zero. */
export interface PaidLineScope {
  /** The run traded or could trade perpetuals: funding is named, zero or not. */
  readonly perpetuals: boolean;
  /** The run had or could have margin loans: interest is named, zero or not. */
  readonly loans: boolean;
}

/**
 * What the run paid besides its trades' prices: fees, and funding and interest when the result has
 * them and the run could pay them ({@link PaidLineScope}) or did.
 * @param m - the result's metrics
 * @param settle - the account currency; empty when unknown
 * @param scope - when funding and interest are named though zero
 * @returns e.g. `  paid: fees 8.00 USDT, funding 3.10 USDT, interest 0.00 USDT`
 */
export function paidLine(m: BacktestMetrics, settle: string, scope: PaidLineScope): string {
  return [
    `  paid: fees ${moneyIn(m.feesPaid, settle)}`,
    m.fundingPaid === undefined || (!scope.perpetuals && m.fundingPaid.isZero())
      ? ''
      : `, funding ${moneyIn(m.fundingPaid, settle)}${m.fundingPaid.isNegative() ? ' (net received)' : ''}`,
    m.interestPaid === undefined || (!scope.loans && m.interestPaid.isZero())
      ? ''
      : `, interest ${moneyIn(m.interestPaid, settle)}`,
  ].join('');
}

/**
 * What the run borrowed and repaid per coin, from its BORROW and REPAY cash flows.
 * @param cashFlows - the run's cash flows
 * @returns one part per coin, e.g. `borrowed 25000.00 USDT, repaid 0.00 USDT, 25000.00 USDT owed at the end`
 */
export function loanParts(cashFlows: readonly CashFlowRecord[]): string[] {
  return loanTotals(cashFlows).map(
    ({ coin, borrowed, repaid, owed }) =>
      `borrowed ${moneyIn(borrowed, coin)}, repaid ${moneyIn(repaid, coin)}, ${moneyIn(owed, coin)} owed at the end`,
  );
}

/**
 * The summary's loan line.
 * @param parts - one part per coin ({@link loanParts}, or a session's view of the venue's loans)
 * @returns e.g. `  loans: borrowed 25000.00 USDT, repaid 0.00 USDT, 25000.00 USDT owed at the end`; none without parts
 */
export function loansLine(parts: readonly string[]): string[] {
  return parts.length === 0 ? [] : [`  loans: ${parts.join('; ')}`];
}
