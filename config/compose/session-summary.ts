import {
  type BacktestResult,
  denialSummary,
  formatMoney,
  formatStrategyFault,
  liquidationNotice,
  shownPath,
  warningsAndNotes,
} from '../../backtest/report/index.ts';
import type { Execution } from '../../core/model/index.ts';
import { type SessionLoans, sessionLoanParts } from './session-loans.ts';
import type { VenueSessionOutcome } from './venue-session-options.ts';

/**
 * One line per fill, as a run prints it.
 * @param fill - the venue's execution
 * @returns e.g. `fill mm BUY 0.01 BINANCE_PERP_BTC_USDT @ 95000.1 (maker, fee 0.19 USDT)`
 */
export function formatFill(fill: Execution): string {
  return `fill ${fill.clientOrderId} ${fill.side} ${fill.quantity.toFixed()} ${fill.sym} @ ${fill.price.toFixed()} (fee ${fill.fee.toFixed()} ${fill.feeCoin})`;
}

/**
 * The closing summary of a live or paper session: fills, PnL, strategies that threw (✖), a
 * liquidation of the account (⚠), setup mistakes that leave a strategy idle (⚠, e.g. bars of a
 * sym the feed never had, a statement that could not be fetched), what was paid in fees, funding
 * and interest and what was borrowed, repaid and still owed (from the venue's statement and, when
 * known, its loans at the start and the end), how many intents were denied
 * (by source and check), and where the recording,
 * result and report were written (or that they could not be, and why).
 * @param outcome - the session's outcome
 * @param synthetic - whether the market data was generated
 * @returns the text, lines ending in newlines
 */
export function formatSessionSummary(outcome: VenueSessionOutcome, synthetic: boolean): string {
  const pnl = outcome.endEquity.sub(outcome.startEquity);
  const settle = outcome.result.meta.runConfig.settleAsset;
  const liquidated = liquidationNotice(outcome.result, typeof settle === 'string' ? settle : '');
  const denied = denialSummary(outcome.result);
  // As the report files them: post-only rejections are a note, not a setup warning.
  const said = warningsAndNotes(outcome.result.meta.warnings ?? [], outcome.result.orders);
  const denialsCsv = outcome.outputs.csv.find((path) => path.endsWith('.denials.csv'));
  return [
    `${synthetic ? 'SYNTHETIC market data (generated, not a real market). ' : ''}Session done: ${outcome.events} events, ${outcome.intents} intents, ${outcome.fills.length} fills`,
    ...(outcome.result.faults ?? []).map((fault) => `  ✖ ${formatStrategyFault(fault)}`),
    ...(liquidated === undefined ? [] : [`  ⚠ ${liquidated}`]),
    ...said.warnings.map((warning) => `  ⚠ ${warning}`),
    ...said.notes.map((note) => `  note: ${note}`),
    ...(outcome.notes ?? []).map((note) => `  ${note}`),
    `  equity ${outcome.startEquity.toDecimalPlaces(2).toFixed(2)} -> ${outcome.endEquity.toDecimalPlaces(2).toFixed(2)}, PnL ${pnl.gte(0) ? '+' : ''}${pnl.toDecimalPlaces(4).toFixed()}`,
    ...cashFlowLines(outcome.result, typeof settle === 'string' ? settle : '', outcome.loans),
    ...(denied === undefined
      ? []
      : [`  ${denied}${denialsCsv === undefined ? '' : `: ${shownPath(denialsCsv)}`}`]),
    outcome.recording === undefined
      ? '  recording: none (the config has no recording section, so this session cannot be replayed)'
      : `  recording: ${shownPath(outcome.recording)}`,
    ...(outcome.outputsNotWritten === undefined
      ? [`  result:    ${shownPath(outcome.outputs.json)}`, `  report:    ${shownPath(outcome.outputs.html)}`]
      : [`  ✖ result and report not written: ${outcome.outputsNotWritten}`]),
    '',
  ].join('\n');
}

/**
 * What the session paid besides its fills' PnL, and what it borrowed, as a backtest's summary
 * says it: the payments only when the venue's statement was read (otherwise a warning says why
 * not), the loans also when only the venue's loans are known (see {@link sessionLoanParts}).
 * Funding is shown when the session traded perpetuals or paid any; interest when it had loans or paid any.
 */
function cashFlowLines(
  result: BacktestResult,
  settle: string,
  venueLoans: SessionLoans | undefined,
): string[] {
  const m = result.metrics;
  const loans = sessionLoanParts(result.cashFlows, venueLoans);
  const loanLines = loans.length === 0 ? [] : [`  loans: ${loans.join('; ')}`];
  if (result.cashFlows === undefined) return loanLines;
  const money = (amount: NonNullable<typeof m.fundingPaid>) =>
    `${formatMoney(amount)}${settle === '' ? '' : ` ${settle}`}`;
  const perpetuals = result.cashFlows.some((f) => f.kind === 'FUNDING_FEE') || tradedPerpetuals(result.fills);
  const paid = [
    `  paid: fees ${money(m.feesPaid)}`,
    m.fundingPaid === undefined || (!perpetuals && m.fundingPaid.isZero())
      ? ''
      : `, funding ${money(m.fundingPaid)}${m.fundingPaid.isNegative() ? ' (net received)' : ''}`,
    m.interestPaid === undefined || (loans.length === 0 && m.interestPaid.isZero())
      ? ''
      : `, interest ${money(m.interestPaid)}`,
  ].join('');
  return [paid, ...loanLines];
}

/**
 * Whether a session traded perpetuals, reading its fill log only as far as the first one (a
 * long run's fills are on file).
 * @param fills - the session's fills
 * @returns true when a fill was on a perpetual
 */
function tradedPerpetuals(fills: Iterable<Execution>): boolean {
  for (const fill of fills) if (fill.sym.includes('_PERP_')) return true;
  return false;
}
