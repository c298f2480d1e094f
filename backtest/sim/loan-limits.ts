import type { Dec } from '../../core/model/index.ts';
import { D, ZERO } from '../../core/model/index.ts';
import type { LoanAssetTerms, LoanPrincipal } from './sim-options.ts';

/** What the per-user quota and the loan pool leave to borrow of one asset on one exchange. */
export interface LoanHeadroom {
  /** The per-user quota less the coin's principal on every exchange (negative when over it). */
  readonly quota: Dec;
  /** The exchange's pool less the principal borrowed from it (negative when over it). */
  readonly pool: Dec;
}

/**
 * What is left to borrow of `exchange:coin` under its terms (Keel's model: the spec names the
 * limits, not how they count): the per-user quota counts the coin borrowed on every exchange, the
 * pool what is borrowed from that exchange; both count every portfolio of the venue the loans
 * given belong to (the quota is shared across portfolios, spec).
 * @param terms - the asset's loan terms
 * @param loans - every loan outstanding at the venue
 * @param exchange - the exchange lending
 * @param coin - the coin
 * @returns the headroom of each limit
 */
export function loanHeadroom(
  terms: LoanAssetTerms,
  loans: Iterable<LoanPrincipal>,
  exchange: string,
  coin: string,
): LoanHeadroom {
  let ofCoin = ZERO;
  let fromPool = ZERO;
  for (const loan of loans) {
    if (loan.coin !== coin) continue;
    ofCoin = ofCoin.plus(loan.principal);
    if (loan.exchange === exchange) fromPool = fromPool.plus(loan.principal);
  }
  return { quota: terms.userQuota.minus(ofCoin), pool: terms.pool.minus(fromPool) };
}

/**
 * The largest borrow both limits allow (`GET .../marginLoan/loan/maxLoan`); margin and LTV may
 * refuse less.
 * @param headroom - the asset's headroom
 * @returns min(quota, pool) left, 0 when either is used up
 */
export function maxLoanable(headroom: LoanHeadroom): Dec {
  return D.max(D.min(headroom.quota, headroom.pool), ZERO);
}
