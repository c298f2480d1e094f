/**
 * The venue's request rules the REST client checks before sending, so a request the venue would
 * refuse fails here with a RequestRuleError naming the field instead of costing a round trip.
 * @packageDocumentation
 */
import { RequestRuleError } from '../errors.ts';
import { MAX_FEE_RATE_PORTFOLIOS } from '../wire/broker.ts';
import { MAX_CLOSE_POSITIONS_SYMS } from '../wire/position.ts';

/**
 * Checks a clientOrderId's length before an order is placed.
 * @param clientOrderId - the id, if any
 * @throws RequestRuleError when it has more than 40 characters
 */
export function checkClientOrderId(clientOrderId: string | undefined): void {
  if (clientOrderId !== undefined && clientOrderId.length > 40) {
    throw new RequestRuleError('clientOrderId', 'must be at most 40 characters');
  }
}

/**
 * Checks how many symbols a close-positions request names.
 * @param symList - the symbols to close
 * @throws RequestRuleError when symList has more than 20 entries (the venue would answer 401129)
 */
export function checkClosePositionsSyms(symList: readonly string[]): void {
  if (symList.length > MAX_CLOSE_POSITIONS_SYMS) {
    throw new RequestRuleError('symList', `has ${symList.length} symbols, at most 20 allowed (401129)`);
  }
}

/**
 * Checks how many portfolios a fee-rate query asks for.
 * @param portfolioIds - the portfolios, if any
 * @throws RequestRuleError when more than 20 portfolios are asked for
 */
export function checkFeeRatePortfolios(portfolioIds: readonly string[] | undefined): void {
  if ((portfolioIds?.length ?? 0) > MAX_FEE_RATE_PORTFOLIOS) {
    throw new RequestRuleError('portfolioIds', 'at most 20 portfolios per fee-rate query');
  }
}

/**
 * Checks the precision of a sub-portfolio fee markup.
 * @param markup - the markup in bps, as text
 * @throws RequestRuleError when the markup is finer than 0.01 bps
 */
export function checkFeeMarkup(markup: string): void {
  if (!/^\d+(?:\.\d{1,2})?$/.test(markup)) {
    throw new RequestRuleError('markup', 'must be bps with at most two decimals (precision 0.01 bps)');
  }
}

/**
 * Refuses parameters an endpoint does not accept (the algo endpoints' refused fields).
 * @param params - the query or body
 * @param fields - the refused field names
 * @param where - the endpoint, for the error (e.g. `GET /api/v1/algo/order`)
 * @throws RequestRuleError naming the first refused field present
 */
export function refuseFields(params: object, fields: readonly string[], where: string): void {
  for (const field of fields) {
    if (field in params) throw new RequestRuleError(field, `is not accepted by ${where}`);
  }
}
