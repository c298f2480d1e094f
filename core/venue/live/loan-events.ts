import { type Dec, parseDecimal, type UserEvent, ZERO } from '../../model/index.ts';
import type { MarginLoanInfoWire } from '../wire/loan.ts';

/**
 * The loans of a margin loan info reply as `loan` events.
 * @param info - `GET .../marginLoan/loan/info` reply
 * @param ts - event time, epoch ms
 * @returns one event per loan balance
 */
export function loanEvents(info: MarginLoanInfoWire, ts: number): UserEvent[] {
  return (info.loans ?? []).map((balance) => ({
    kind: 'loan',
    ts,
    recvTs: ts,
    loan: {
      exchange: balance.exchange,
      coin: balance.coin,
      principal: parseDecimal(balance.principal, 'principal'),
      interest: balance.interest === undefined ? ZERO : parseDecimal(balance.interest, 'interest'),
      // The info endpoint carries no rate; GET .../config has it per coin (annualInterestRate).
      annualRate: ZERO as Dec,
      updateAt: ts,
    },
  }));
}
