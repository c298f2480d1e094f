import {
  type BacktestResult,
  denialSummary,
  figuresLine,
  firstDenialReason,
  formatStrategyFault,
  liquidationNotice,
  loansLine,
  paidLine,
  shownPath,
  warningsAndNotes,
} from '../../backtest/report/index.ts';
import type { Execution } from '../../core/model/index.ts';
import { type SessionLoans, sessionLoanParts } from './session-loans.ts';
import type { SessionEventCount, VenueSessionOutcome } from './venue-session-options.ts';

/**
 * One line per fill, as a run prints it.
 * @param fill - the venue's execution
 * @returns e.g. `fill mm BUY 0.01 BINANCE_PERP_BTC_USDT @ 95000.1 (maker, fee 0.19 USDT)`
 */
export function formatFill(fill: Execution): string {
  return `fill ${fill.clientOrderId} ${fill.side} ${fill.quantity.toFixed()} ${fill.sym} @ ${fill.price.toFixed()} (fee ${fill.fee.toFixed()} ${fill.feeCoin})`;
}

/**
 * The closing summary of a live or paper session: fills, strategies that threw (✖), a
 * liquidation of the account (⚠), setup mistakes that leave a strategy idle (⚠, e.g. bars of a
 * sym the feed never had, a statement that could not be fetched), what was paid in fees, funding
 * and interest and what was borrowed, repaid and still owed (from the venue's statement and, when
 * known, its loans at the start and the end), how many intents were denied
 * (by source and check), the figures a backtest's summary prints (fills, trades, equity, PnL,
 * return, Sharpe, with its formatter), and where the recording,
 * result and report were written (or that they could not be, and why).
 * @param outcome - the session's outcome
 * @param synthetic - whether the market data was generated
 * @returns the text, lines ending in newlines
 */
export function formatSessionSummary(outcome: VenueSessionOutcome, synthetic: boolean): string {
  const settle = outcome.result.meta.runConfig.settleAsset;
  const settleAsset = typeof settle === 'string' ? settle : '';
  const liquidated = liquidationNotice(outcome.result, settleAsset);
  const denied = denialSummary(outcome.result);
  // As the report files them: post-only rejections are a note, not a setup warning.
  const said = warningsAndNotes(outcome.result.meta.warnings ?? [], outcome.result.orders);
  const denialsCsv = outcome.outputs.csv.find((path) => path.endsWith('.denials.csv'));
  return [
    `${synthetic ? 'SYNTHETIC market data (generated, not a real market). ' : ''}Session done: ${eventsText(outcome.events)}, ${outcome.intents} intents, ${outcome.fills.length} fills`,
    ...(outcome.result.faults ?? []).map((fault) => `  ✖ ${formatStrategyFault(fault)}`),
    ...(liquidated === undefined ? [] : [`  ⚠ ${liquidated}`]),
    ...said.warnings.map((warning) => `  ⚠ ${warning}`),
    ...said.notes.map((note) => `  note: ${note}`),
    ...(outcome.notes ?? []).map((note) => `  ${note}`),
    figuresLine(outcome.result, settleAsset),
    ...cashFlowLines(outcome.result, settleAsset, outcome.loans),
    ...(denied === undefined
      ? []
      : [
          `  ${denied}${denialsCsv === undefined ? '' : `: ${shownPath(denialsCsv)}`}`,
          `    the first: ${firstDenialReason(outcome.result)}`,
        ]),
    outcome.recording === undefined
      ? '  recording: none (the config has no recording section, so this session cannot be replayed)'
      : `  recording: ${shownPath(outcome.recording)}`,
    ...(outcome.outputsNotWritten === undefined
      ? [`  result:    ${shownPath(outcome.outputs.json)}`, `  report:    ${shownPath(outcome.outputs.html)}`]
      : outcome.resultWritten === true
        ? [
            `  result:    ${shownPath(outcome.outputs.json)}`,
            `  ✖ CSVs and report not written: ${outcome.outputsNotWritten}`,
          ]
        : [`  ✖ result and report not written: ${outcome.outputsNotWritten}`]),
    '',
  ].join('\n');
}

/**
 * What the session paid besides its fills' PnL, and what it borrowed, with the backtest summary's
 * formatter: the payments only when the venue's statement was read (otherwise a warning says why
 * not), the loans also when only the venue's loans are known (see {@link sessionLoanParts}).
 * Funding is shown when the session traded perpetuals or paid any; interest when it had loans or paid any.
 */
function cashFlowLines(
  result: BacktestResult,
  settle: string,
  venueLoans: SessionLoans | undefined,
): string[] {
  const loans = sessionLoanParts(result.cashFlows, venueLoans);
  if (result.cashFlows === undefined) return loansLine(loans);
  const perpetuals = result.cashFlows.some((f) => f.kind === 'FUNDING_FEE') || tradedPerpetuals(result.fills);
  return [paidLine(result.metrics, settle, { perpetuals, loans: loans.length > 0 }), ...loansLine(loans)];
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

/**
 * The events a session handled, by stream: a backtest of its recording counts the market data
 * alone, so the total would not match it.
 * @returns e.g. `2465 events (730 market data, 1735 User Data)`
 */
function eventsText(events: SessionEventCount): string {
  return `${events.market + events.userData} events (${events.market} market data, ${events.userData} User Data)`;
}
