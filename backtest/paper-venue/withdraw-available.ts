import type { Account, Asset, Dec, LoanRisk } from '../../core/model/index.ts';
import { D, ZERO } from '../../core/model/index.ts';
import type { LoanOptions } from '../sim/index.ts';
import { resolveLoanOptions } from '../sim/index.ts';

/** Decimal places of a withdrawable amount: the loans' precision (`LOAN_AMOUNT_DECIMALS`). */
const AMOUNT_DECIMALS = 8;

/**
 * What of a coin may leave the portfolio (`withdrawAvailable`, spec: "Amount available to transfer
 * out or withdraw"), as a portfolio-margin venue lets it (Keel's model; the spec gives no
 * formula), rounded down to 8 decimal places and never below 0, the least of:
 * - the coin's own free balance: available (balance less frozen) less what is borrowed of it:
 *   borrowed coins are owed, not the account's to take out;
 * - the free margin valued in the coin: available margin (equity less the initial margin of
 *   positions and open orders, so unrealized losses count) less the maintenance margin of the
 *   loans (`maintenanceMarginRate` x loan value), as a borrow counts it; a withdrawal beyond it
 *   would leave the positions or loans under-margined;
 * - with loans, what keeps the LTV (loan value / (equity + loan value)) within `maxBorrowLtv`, the
 *   limit a borrow may leave: equity + loan value - loan value / maxBorrowLtv, valued in the coin.
 * A coin the venue cannot value yet (no `{coin}/{valuation coin}` instrument has a price) counts
 * 0 in its equity, so only its own free balance bounds it.
 * @param asset - the coin's asset view
 * @param value - the coin's value in the account currency (`SimVenue.coinValue`), undefined while unknown
 * @param account - the portfolio's account view
 * @param risk - the portfolio's loan risk
 * @param loans - the venue's loan options
 * @returns the amount in the coin's units
 */
export function withdrawAvailable(
  asset: Asset,
  value: Dec | undefined,
  account: Account,
  risk: LoanRisk,
  loans: LoanOptions | undefined,
): Dec {
  const own = asset.available.minus(asset.borrow);
  if (value === undefined || !value.gt(0))
    return D.max(own, ZERO).toDecimalPlaces(AMOUNT_DECIMALS, D.ROUND_DOWN);
  const terms = resolveLoanOptions(loans);
  const loanValue = risk.totalLoanValue;
  let room = account.availableMargin.minus(loanValue.mul(terms.maintenanceMarginRate));
  if (loanValue.gt(0) && terms.maxBorrowLtv.gt(0)) {
    room = D.min(room, account.equity.plus(loanValue).minus(loanValue.div(terms.maxBorrowLtv)));
  }
  return D.max(D.min(own, room.div(value)), ZERO).toDecimalPlaces(AMOUNT_DECIMALS, D.ROUND_DOWN);
}
