import { type CashFlowRecord, formatMoney, loanParts, loanTotals } from '../../backtest/report/index.ts';
import { type Dec, type Loan, ZERO } from '../../core/model/index.ts';

/**
 * The margin loans a live or paper session found open on the venue when it began (adopted from an
 * earlier run) and left open when it stopped, as the venue (or the client's reconciled state)
 * reported them.
 */
export interface SessionLoans {
  readonly atStart: readonly Loan[];
  readonly atEnd: readonly Loan[];
}

/**
 * The principal owed per coin, summed over the exchanges lending it.
 * @param loans - the loans
 * @returns the principal by coin, in the order the coins first appear
 */
function principalByCoin(loans: readonly Loan[]): Map<string, Dec> {
  const owed = new Map<string, Dec>();
  for (const loan of loans) owed.set(loan.coin, (owed.get(loan.coin) ?? ZERO).plus(loan.principal));
  return owed;
}

/**
 * What a session's summary says of its loans, per coin: what was owed at its start when it began
 * owing (a restart adopts the loans an earlier run left), what the venue's statement lists it
 * borrowed and repaid, and what the venue says is still owed at the end. Without the venue's
 * loans the session knows only its own borrows and repays: owed is then what they leave
 * (borrowed - repaid, not counting a loan from before it).
 * @param cashFlows - the statement's cash flows; undefined when it could not be read
 * @param loans - the venue's loans at the start and the end; undefined when unknown
 * @returns one part per coin (empty when the session had no loan and made none)
 */
export function sessionLoanParts(
  cashFlows: readonly CashFlowRecord[] | undefined,
  loans: SessionLoans | undefined,
): string[] {
  if (loans === undefined) return loanParts(cashFlows ?? []);
  const totals = loanTotals(cashFlows ?? []);
  const money = (amount: Dec, coin: string) => `${formatMoney(amount)} ${coin}`;
  const atStart = principalByCoin(loans.atStart);
  const atEnd = principalByCoin(loans.atEnd);
  const flows = new Map(totals.map((t) => [t.coin, t]));
  const coins = new Set([...atStart.keys(), ...flows.keys(), ...atEnd.keys()]);
  return [...coins].map((coin) => {
    const start = atStart.get(coin) ?? ZERO;
    const moved = flows.get(coin);
    return [
      ...(start.isZero() ? [] : [`${money(start, coin)} owed at the start`]),
      ...(moved === undefined
        ? []
        : [`borrowed ${money(moved.borrowed, coin)}`, `repaid ${money(moved.repaid, coin)}`]),
      `${money(atEnd.get(coin) ?? ZERO, coin)} owed at the end`,
    ].join(', ');
  });
}

/**
 * The warning of a session whose loans could not be read from the venue at its end, when it holds
 * one: what it says is owed at the end is then its own view, which misses a repay the venue made
 * itself (a liquidation's).
 * @param loans - the loans the session holds
 * @returns one warning, or none when it holds no loan with principal left
 */
export function unreadLoansAtEndWarnings(loans: Iterable<Loan>): string[] {
  const owed = [...loans].filter((loan) => loan.principal.gt(0));
  if (owed.length === 0) return [];
  const listed = owed
    .map((loan) => `${loan.principal.toFixed()} ${loan.coin} on ${loan.exchange}`)
    .join(', ');
  return [
    `The venue's margin loans could not be read at the end: the loans said to be owed at the end (${listed}) are Keel's last view of them, which misses any repay the venue made itself (a liquidation's).`,
  ];
}
