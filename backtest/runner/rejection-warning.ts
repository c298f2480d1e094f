import type { CommandRejectedEvent, Order } from '../../core/model/index.ts';
import { REJECTION_WARNING_START } from '../report/index.ts';

/**
 * How a warning names a rejected order: sym, side, reference and the venue's reason.
 * @param order - the rejected order
 * @returns e.g. `US_EQUITY_SPY BUY sc-3: 401023 insufficient margin: needs 4851.00, available 4843.25`
 */
export function rejectedOrderText(order: Order): string {
  return `${order.sym} ${order.side} ${order.clientOrderId}: ${order.reason ?? 'no reason given'}`;
}

/**
 * The warning of a run (backtest, paper or live session) whose orders the venue rejected: a run
 * whose orders were refused otherwise ends with fewer fills, or none, and nothing said.
 * @param rejected - how many orders were rejected
 * @param placed - how many orders were placed
 * @param first - the first rejection, as {@link rejectedOrderText} gives it
 * @returns a sentence counting the rejections with the first one's reason, or undefined when none was rejected
 */
export function rejectionWarning(
  rejected: number,
  placed: number,
  first: string | undefined,
): string | undefined {
  if (rejected === 0) return undefined;
  const firstText = `the first: ${first ?? 'not recorded'}`;
  // The report tells this warning by how it begins.
  if (rejected >= placed)
    return `${REJECTION_WARNING_START}every order placed (${rejected} of ${placed}), so nothing could fill; ${firstText}`;
  return `${REJECTION_WARNING_START}${rejected} of the ${placed} orders placed; ${firstText}`;
}

/**
 * Whether a refused command is a loan movement (borrow or repay).
 * @param event - a commandRejected event
 * @returns true for a refused borrow or repay
 */
export function isLoanRefusal(event: CommandRejectedEvent): boolean {
  return event.intentKind === 'borrow' || event.intentKind === 'repay';
}

/**
 * How a warning names a refused borrow or repay: the command, its reference and the venue's reason.
 * @param event - the refusal
 * @returns e.g. `borrow carry-1: 406014 the asset cannot be borrowed on this exchange: ...`
 */
export function refusedLoanText(event: CommandRejectedEvent): string {
  return `${event.intentKind} ${event.ref}: ${event.message}`;
}

/**
 * The warning of a run whose borrow or repay commands the venue refused: a loan strategy whose
 * every borrow is refused (406014 when a simulated venue has no loan terms) otherwise ends with
 * no loan, no fill and nothing said.
 * @param refused - how many borrow or repay commands were refused
 * @param first - the first refusal, as {@link refusedLoanText} gives it
 * @returns a sentence counting the refusals with the first one's reason, or undefined when none was refused
 */
export function loanRefusalWarning(refused: number, first: string | undefined): string | undefined {
  if (refused === 0) return undefined;
  const commands = refused === 1 ? 'command' : 'commands';
  return `the venue refused ${refused} borrow or repay ${commands}; the first: ${first ?? 'not recorded'}`;
}
