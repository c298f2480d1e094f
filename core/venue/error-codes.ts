/** The nonce (or login timestamp) is outside ±60 s of the server's clock (per public venue docs). */
export const NONCE_OUT_OF_RANGE = 7000;

/**
 * The venue's error codes and what each means. Codes 401129 and 401011 and the 406014–406023
 * range are the spec's; the others are per public venue docs. The spec names the 406014–406023
 * range only as "loan-asset validation, margin, quota and pool limits, LTV restrictions,
 * liquidation state and repayment checks": the one-per-code split below is Keel's choice, in the
 * order the spec lists those topics.
 */
export const VENUE_ERROR_MEANINGS: ReadonlyMap<number, string> = new Map([
  [0, 'success'],
  [200000, 'success (the public venue writes success as 200000)'],
  [2000, 'the request signature is wrong'],
  [2001, 'the caller IP is not whitelisted for this API key'],
  [2002, 'the API key is invalid'],
  [2003, 'the API key has no permission for this operation'],
  [7000, 'the nonce is out of range (the server accepts +-60 s of its clock)'],
  [40000, 'system error on the venue side'],
  [50001, 'the service is unavailable'],
  [60009, 'private WebSocket login failed'],
  [400001, 'bad parameters'],
  [400009, 'bad symbol'],
  [401011, 'the sym is not supported: invalid, not recognized, or not enabled for ADL monitoring'],
  [401018, 'order not found'],
  [401023, 'insufficient margin'],
  [401058, 'the order is already final'],
  [401097, 'the position quantity is 0'],
  [401117, 'the order is already completed, so it cannot be cancelled'],
  [
    401129,
    'close position rejected: symList has more than 20 symbols, or too many reduceOnly open orders on ' +
      'the requested symbols; cancel open orders and retry',
  ],
  [406010, 'duplicate clientOrderId'],
  [406012, 'position-mode switch blocked (open orders or positions exist)'],
  [406014, 'loan asset is not supported for borrowing (loan-asset validation)'],
  [406015, 'loan amount is invalid: not positive or below the minimum (loan-asset validation)'],
  [406016, 'insufficient margin to borrow this amount'],
  [406017, 'the per-user borrow quota (shared across portfolios) would be exceeded'],
  [406018, 'the exchange loan pool has not enough of this asset left'],
  [406019, 'the borrow would push the loan-to-value ratio (LTV) over the allowed level'],
  [406020, 'borrowing is restricted while the portfolio LTV is at warning level'],
  [406021, 'loans cannot change while the portfolio is in liquidation'],
  [406022, 'repay amount exceeds the outstanding loan principal'],
  [406023, 'insufficient available balance of the asset to repay'],
  [11100, 'market data: invalid symbol'],
  [11260, 'market data: rate limit'],
]);

/** Success codes of the envelope: the spec's 0 and the public venue's 200000. */
export const SUCCESS_CODES: ReadonlySet<number> = new Set([0, 200000]);

/**
 * What a venue error code means.
 * @param code - the envelope's code
 * @returns the meaning, or undefined when neither the spec nor the public docs name the code
 */
export function venueErrorMeaning(code: number): string | undefined {
  return VENUE_ERROR_MEANINGS.get(code);
}
