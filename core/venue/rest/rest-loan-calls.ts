import type { LoanPoolQuery, MarginLoanBody, MarginLoanHistoryQuery } from '../wire/loan.ts';
import type { RestClientOptions } from './rest-client-options.ts';
import { RestEndpointCaller } from './rest-endpoint-caller.ts';

/**
 * The venue's loan endpoints, one typed method each: the loan pool, loan info, coin discounts and
 * user interest (the `_detail` endpoints, and the legacy ones the venue deprecates, routed to
 * `_detail` unless `legacyLoanEndpoints: 'legacy'`), and margin loans (borrow, repay, their
 * orders and statement). `VenueRestClient` extends it with every other endpoint.
 */
export class RestLoanCalls extends RestEndpointCaller {
  private readonly legacy: 'detail' | 'legacy';

  /** @param options - base address, signer and policies */
  constructor(options: RestClientOptions) {
    super(options);
    this.legacy = options.legacyLoanEndpoints ?? 'detail';
  }

  /** Maximum loanable quantity of an asset on an exchange. @param query - exchange and asset (required) @returns the pool */
  getLoanPool(query: LoanPoolQuery) {
    return this.call('getLoanPool', query);
  }
  /** Loan info (`_detail`). @returns the entries */
  getLoanInfo() {
    return this.call('getLoanInfoDetail');
  }
  /** Coin discount (`_detail`). @returns the entries */
  getCoinDiscount() {
    return this.call('getCoinDiscountDetail');
  }
  /** User interest (`_detail`). @returns the entries */
  getUserInterest() {
    return this.call('getUserInterestDetail');
  }
  /**
   * Legacy loan info.
   * @deprecated deprecated by the venue from end of October 2026: use {@link RestLoanCalls.getLoanInfo}. Routed to `info_detail` unless `legacyLoanEndpoints: 'legacy'`.
   * @returns the entries
   */
  getLoanInfoLegacy() {
    return this.legacy === 'legacy' ? this.call('getLoanInfoLegacy') : this.getLoanInfo();
  }
  /**
   * Legacy coin discount.
   * @deprecated use {@link RestLoanCalls.getCoinDiscount}; routed to `discount_detail` by default.
   * @returns the entries
   */
  getCoinDiscountLegacy() {
    return this.legacy === 'legacy' ? this.call('getCoinDiscountLegacy') : this.getCoinDiscount();
  }
  /**
   * Legacy user interest.
   * @deprecated use {@link RestLoanCalls.getUserInterest}; routed to `user_detail` by default.
   * @returns the entries
   */
  getUserInterestLegacy() {
    return this.legacy === 'legacy' ? this.call('getUserInterestLegacy') : this.getUserInterest();
  }
  /** Margin loan status, LTV and balances. @returns the info */
  getMarginLoanInfo() {
    return this.call('getMarginLoanInfo');
  }
  /** Margin loan config per coin. @returns the entries */
  getMarginLoanConfig() {
    return this.call('getMarginLoanConfig');
  }
  /** Max borrowable per coin and exchange. @param query - optional coin @returns the entries */
  getMarginMaxLoan(query: { coin?: string } = {}) {
    return this.call('getMarginMaxLoan', query);
  }
  /** Borrows an asset. @param body - exchange, coin, amount @returns the loan order */
  marginBorrow(body: MarginLoanBody) {
    return this.call('marginBorrow', body);
  }
  /** Repays loan principal. @param body - exchange, coin, amount @returns the loan order */
  marginRepay(body: MarginLoanBody) {
    return this.call('marginRepay', body);
  }
  /** Borrow and repay orders (last 90 days), one page. @param query - filters @returns the page */
  getMarginLoanOrders(query: MarginLoanHistoryQuery = {}) {
    return this.call('getMarginLoanOrders', query);
  }
  /** Loan settlement statement (last 90 days), one page. @param query - filters @returns the page */
  getMarginLoanStatement(query: MarginLoanHistoryQuery = {}) {
    return this.call('getMarginLoanStatement', query);
  }
}
