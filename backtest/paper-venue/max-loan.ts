import type { Account, Dec, LoanRisk } from '../../core/model/index.ts';
import { D, ZERO } from '../../core/model/index.ts';
import type { LoanAssetTerms, LoanHeadroom, LoanOptions } from '../sim/index.ts';
import { maxLoanable, resolveLoanOptions } from '../sim/index.ts';

/** Decimal places of a loan amount (the sim's `LOAN_AMOUNT_DECIMALS`, Keel's assumption). */
const LOAN_DECIMALS = 8;

/** The smallest borrow when the terms name none (the sim's `DEFAULT_MIN_BORROW`). */
const DEFAULT_MIN_BORROW = D('0.00000001');

/** What the portfolio's margin and loans stand at now, as the sim's borrow checks read them. */
export interface LoanStanding {
  readonly account: Account;
  readonly risk: LoanRisk;
  /** A coin's value in the account currency (`SimVenue.coinValue`), undefined while unknown. */
  readonly coinValue: (coin: string) => Dec | undefined;
}

/**
 * The largest borrow of a coin the sim would grant now (`GET .../marginLoan/loan/maxLoan`): a
 * borrow of exactly it passes every check of the sim's `borrow` and one of 0.00000001 more is
 * refused. It follows those checks in their order (Keel's codes of the spec's 406014-406023):
 * - 0 unless the account is NORMAL and its LTV below `ltvWarningLevel` (406020);
 * - at most what the per-user quota and the pool leave, over the venue's loans (406017, 406018);
 * - 0 while the coin's value is unknown (406019: no `{coin}/{valuation coin}` instrument has a
 *   price yet);
 * - at most what the free margin carries: (available margin - loan value x mmr) / (value x mmr),
 *   mmr the loans' `maintenanceMarginRate` (406016);
 * - at most what keeps the LTV within `maxBorrowLtv` (m): (m x equity / (1 - m) - loan value) /
 *   value (406019): (loan value + borrowed value) / (equity + loan value + borrowed value) <= m,
 *   the equity unchanged by a borrow (its coins are owed);
 * rounded down to 8 decimal places, and 0 when below the asset's minimum borrow (406015).
 * @param coin - the coin
 * @param terms - its loan terms on the exchange
 * @param headroom - what the quota and pool leave of it
 * @param standing - the portfolio's account, assets and loan risk now
 * @param loans - the venue's loan options
 * @returns the amount in the coin's units, never below 0
 */
export function maxLoanOf(
  coin: string,
  terms: LoanAssetTerms,
  headroom: LoanHeadroom,
  standing: LoanStanding,
  loans: LoanOptions | undefined,
): Dec {
  const options = resolveLoanOptions(loans);
  const { account, risk } = standing;
  if (account.accountStatus !== 'NORMAL' || risk.ltv.gte(options.ltvWarningLevel)) return ZERO;
  const value = standing.coinValue(coin);
  if (value === undefined || !value.gt(0)) return ZERO;
  let max = maxLoanable(headroom);
  const rate = options.maintenanceMarginRate;
  if (rate.gt(0)) {
    const free = account.availableMargin.minus(risk.totalLoanValue.mul(rate));
    max = D.min(max, free.div(value.mul(rate)));
  }
  const limit = options.maxBorrowLtv;
  if (limit.lt(1)) {
    const byLtv = limit.mul(account.equity).div(D(1).minus(limit)).minus(risk.totalLoanValue);
    max = D.min(max, byLtv.div(value));
  }
  const amount = D.max(max, ZERO).toDecimalPlaces(LOAN_DECIMALS, D.ROUND_DOWN);
  return amount.lt(terms.minBorrow ?? DEFAULT_MIN_BORROW) ? ZERO : amount;
}

/**
 * The leverage a margin loan allows (`GET .../marginLoan/loan/config`'s `leverage`, Keel's
 * reading): the gross asset value one unit of equity may carry at the largest LTV a borrow may
 * leave, 1 / (1 - maxBorrowLtv) (2 at the default 0.5).
 * @param loans - the venue's loan options
 * @returns the leverage, undefined when maxBorrowLtv is 1 or more (no bound)
 */
export function loanLeverage(loans: LoanOptions | undefined): Dec | undefined {
  const limit = resolveLoanOptions(loans).maxBorrowLtv;
  return limit.lt(1) ? D(1).div(D(1).minus(limit)) : undefined;
}
