import { type Dec, parseDecimal, type UserEvent, ZERO } from '../../model/index.ts';
import type { MarginLoanInfoWire } from '../wire/loan.ts';

/** The loan a borrow or repay moved: its exchange account and coin. */
export interface MovedLoan {
  readonly exchange: string;
  readonly coin: string;
}

/**
 * The loans of a margin loan info reply as `loan` events. The reply lists outstanding loans
 * only, so the loan a repay paid off is missing from it: given as `moved`, it is reported with
 * principal and interest 0, as the simulated venue publishes a loan it closes, rather than left at
 * its last principal.
 * @param info - `GET .../marginLoan/loan/info` reply
 * @param ts - event time, epoch ms
 * @param moved - the loan the command behind the read borrowed or repaid, if any
 * @returns one event per loan balance, and one for the moved loan when the reply omits it
 */
export function loanEvents(info: MarginLoanInfoWire, ts: number, moved?: MovedLoan): UserEvent[] {
  const balances = info.loans ?? [];
  const events: UserEvent[] = balances.map((balance) =>
    loanEvent(
      balance.exchange,
      balance.coin,
      parseDecimal(balance.principal, 'principal'),
      balance.interest === undefined ? ZERO : parseDecimal(balance.interest, 'interest'),
      ts,
    ),
  );
  if (moved !== undefined && !balances.some((b) => b.exchange === moved.exchange && b.coin === moved.coin))
    events.push(loanEvent(moved.exchange, moved.coin, ZERO, ZERO, ts));
  return events;
}

function loanEvent(exchange: string, coin: string, principal: Dec, interest: Dec, ts: number): UserEvent {
  return {
    kind: 'loan',
    ts,
    recvTs: ts,
    loan: {
      exchange,
      coin,
      principal,
      interest,
      // The info endpoint carries no rate; GET .../config has it per coin (annualInterestRate).
      annualRate: ZERO as Dec,
      updateAt: ts,
    },
  };
}
