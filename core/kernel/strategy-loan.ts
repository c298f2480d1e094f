import type { Dec, Loan } from '../model/index.ts';
import { hourlyLoanInterest } from '../model/index.ts';

/** A margin loan as a strategy reads it (`ctx.loans()`): the venue's report and what a repay now costs. */
export interface StrategyLoan extends Loan {
  /**
   * The interest a repay of the whole principal now charges besides what is in `interest`: the
   * hour under way, which `interest` leaves out until the venue charges it when the hour ends.
   * Keel's simulated and paper venues charge any hour started whole, at a repay too, from the
   * coin's balance (below zero if need be), so a strategy that buys back its borrowed coin to
   * repay buys `principal` plus this, or the repay leaves the balance short by it and the next sale
   * of the coin is refused (401023). One hour's interest on the principal
   * (principal x annualRate / 8760, rounded up to 8 places): at most what those venues charge (a
   * repay exactly on the hour charges nothing more). Live, the venue settles interest on its own
   * schedule (the spec: "interest is settled separately"); this is Keel's estimate there.
   */
  readonly interestDue: Dec;
}

/**
 * A reported loan as a strategy reads it.
 * @param loan - the loan as the venue reported it
 * @returns the loan with the interest a repay now charges ({@link StrategyLoan.interestDue})
 */
export function strategyLoan(loan: Loan): StrategyLoan {
  return { ...loan, interestDue: hourlyLoanInterest(loan.principal, loan.annualRate) };
}
