import type { SetPositionModeBody, StatementQuery } from '../wire/account.ts';
import {
  ALGO_PLACE_REFUSED_FIELDS,
  ALGO_QUERY_REFUSED_FIELDS,
  type AlgoHistoryQuery,
  type AlgoOrderRef,
  type CancelAllAlgoBody,
  type PlaceAlgoOrderBody,
  type ReplaceAlgoOrderBody,
} from '../wire/algo.ts';
import type {
  CollectionRecordQuery,
  FeeRateQuery,
  SetSubFeeRateBody,
  SubFeeRateQuery,
} from '../wire/broker.ts';
import type { ExecutionsQuery } from '../wire/execution.ts';
import type {
  CancelOrderBody,
  CancelOrdersBody,
  OpenOrdersQuery,
  OrderHistoryQuery,
  OrderRef,
  PlaceOrderBody,
  ReplaceOrderBody,
} from '../wire/order.ts';
import type {
  ClosePositionBody,
  ClosePositionsBody,
  PositionHistoryQuery,
  PositionsQuery,
} from '../wire/position.ts';
import {
  checkClientOrderId,
  checkClosePositionsSyms,
  checkFeeMarkup,
  checkFeeRatePortfolios,
  refuseFields,
} from './request-rules.ts';
import type { RestEndpointCaller } from './rest-endpoint-caller.ts';
import { RestLoanCalls } from './rest-loan-calls.ts';

/**
 * The venue's REST interface: one typed method per endpoint, signed requests, envelope decoding,
 * typed errors, queued rate limits, GET retries and paginated iterators (calling by name, limits
 * and pages come from {@link RestEndpointCaller}; the loan endpoints from {@link RestLoanCalls};
 * the checks made before sending from `request-rules.ts`).
 */
export class VenueRestClient extends RestLoanCalls {
  // Orders.
  /** Places an order (POST /api/v1/trading/order). @param body - the order @returns orderId and clientOrderId */
  placeOrder(body: PlaceOrderBody) {
    checkClientOrderId(body.clientOrderId);
    return this.call('placeOrder', body);
  }
  /** Modifies an order (PUT /api/v1/trading/order; Keel's choice of method). @param body - order ref and new terms @returns the ack */
  replaceOrder(body: ReplaceOrderBody) {
    return this.call('replaceOrder', body);
  }
  /** Cancels one order (DELETE /api/v1/trading/order, per public venue docs). @param body - order ref @returns the ack (final state comes on the Orders channel) */
  cancelOrder(body: CancelOrderBody) {
    return this.call('cancelOrder', body);
  }
  /** Cancels many orders (DELETE /api/v1/trading/cancelAll, per public venue docs). @param body - filters @returns the raw data */
  cancelAllOrders(body: CancelOrdersBody = {}) {
    return this.call('cancelAllOrders', body);
  }
  /** Queries one order by orderId or clientOrderId (GET /api/v1/trading/order). @param ref - which order @returns the order @throws VenueError 401018 when the venue does not know it */
  getOrder(ref: OrderRef) {
    return this.call('getOrder', ref);
  }
  /** Current open orders (GET /api/v1/trading/orders). @param query - optional sym @returns the orders */
  getOpenOrders(query: OpenOrdersQuery = {}) {
    return this.call('getOpenOrders', query);
  }
  /** Order history, one page (30 / 10 s per portfolio). @param query - filters incl. filterExecuted @returns the page */
  getOrderHistory(query: OrderHistoryQuery = {}) {
    return this.call('getOrderHistory', query);
  }
  /** Archived order history, one page. @param query - filters incl. filterExecuted @returns the page */
  getArchivedOrderHistory(query: OrderHistoryQuery = {}) {
    return this.call('getArchivedOrderHistory', query);
  }
  /** Recent executions, up to 7 days. @param query - exchange, businessType, sym @returns the executions */
  getExecutions(query: ExecutionsQuery = {}) {
    return this.call('getExecutions', query);
  }
  /** Recent executions, paginated. @param query - exchange, businessType, page, pageSize, limit @returns the page */
  getExecutionsPage(query: ExecutionsQuery = {}) {
    return this.call('getExecutionsPage', query);
  }
  /** Archived executions (7 to 90 days), paginated. @param query - exchange, businessType, page @returns the page */
  getArchivedExecutionsPage(query: ExecutionsQuery = {}) {
    return this.call('getArchivedExecutionsPage', query);
  }

  // Positions and account.
  /** Portfolio positions. @param query - sym, ignoreZero @returns the positions */
  getPositions(query: PositionsQuery = {}) {
    return this.call('getPositions', query);
  }
  /** Closes one position with a market close (reduceOnly orders on the sym are cancelled first). @param body - sym and side @returns the raw data */
  closePosition(body: ClosePositionBody) {
    return this.call('closePosition', body);
  }
  /**
   * Closes several positions.
   * @param body - symList, at most 20
   * @returns the raw data
   * @throws RequestRuleError before sending when symList has more than 20 entries (the venue would answer 401129)
   */
  closePositions(body: ClosePositionsBody) {
    checkClosePositionsSyms(body.symList);
    return this.call('closePositions', body);
  }
  /** Historical positions, one page (30 / 10 s per portfolio). @param query - filters @returns the page */
  getPositionHistory(query: PositionHistoryQuery = {}) {
    return this.call('getPositionHistory', query);
  }
  /** Statement, one page (100 / 60 s per portfolio). @param query - filters @returns the page */
  getStatement(query: StatementQuery = {}) {
    return this.call('getStatement', query);
  }
  /** Change Account PositionMode (NET or BOTH). @param body - the mode @returns the raw data */
  setPositionMode(body: SetPositionModeBody) {
    return this.call('setPositionMode', body);
  }
  /** The trading account, with positionMode. @returns the account */
  getTradingAccount() {
    return this.call('getTradingAccount');
  }
  /** Symbol info. @param query - optional sym @returns the entries */
  getSymInfo(query: { sym?: string } = {}) {
    return this.call('getSymInfo', query);
  }
  /** Trade accounts. @returns the list */
  getTradeAccounts() {
    return this.call('getTradeAccounts');
  }
  /** Account currency info with withdrawAvailable. @param query - optional coin @returns the entries */
  getAccountCurrencyInfo(query: { coin?: string } = {}) {
    return this.call('getAccountCurrencyInfo', query);
  }
  /** Deposit, withdraw and transfer currency info. @param query - optional coin @returns the entries */
  getCurrencies(query: { coin?: string } = {}) {
    return this.call('getCurrencies', query);
  }
  /** System upgrade status. @returns the status */
  getSystemStatus() {
    return this.call('getSystemStatus');
  }

  // Fees and broker.
  /**
   * Trading fee rates with symbol groups.
   * @param query - up to 20 portfolios, optional syms
   * @returns one entry per portfolio
   * @throws RequestRuleError when more than 20 portfolios are asked for
   */
  getFeeRate(query: FeeRateQuery = {}) {
    checkFeeRatePortfolios(query.portfolioIds);
    return this.call('getFeeRate', query);
  }
  /** Fee rate of the current sub-portfolio. @returns the rate */
  getSubFeeRate() {
    return this.call('getSubFeeRate');
  }
  /**
   * Sets the markup of a sub-portfolio's fee.
   * @param body - subPortfolioId and markup in bps
   * @returns the raw data
   * @throws RequestRuleError when the markup is finer than 0.01 bps
   */
  setSubFeeRate(body: SetSubFeeRateBody) {
    checkFeeMarkup(body.markup);
    return this.call('setSubFeeRate', body);
  }
  /** Get Fee Rate of Subportfolio. @param query - the sub-portfolio @returns the rate with symbol groups */
  getSubPortfolioFeeRate(query: SubFeeRateQuery) {
    return this.call('getSubPortfolioFeeRate', query);
  }
  /** Collection records, one page. @param query - subPortfolioId, sym @returns the page */
  getCollectionRecords(query: CollectionRecordQuery = {}) {
    return this.call('getCollectionRecords', query);
  }

  // Algo orders.
  /** Places an algo order. @param body - the order @returns the algo order @throws RequestRuleError when a refused field is present */
  placeAlgoOrder(body: PlaceAlgoOrderBody) {
    refuseFields(body, ALGO_PLACE_REFUSED_FIELDS, 'POST /api/v1/algo/order');
    return this.call('placeAlgoOrder', body);
  }
  /** Replaces an algo order. @param body - ref and new terms @returns the algo order */
  replaceAlgoOrder(body: ReplaceAlgoOrderBody) {
    return this.call('replaceAlgoOrder', body);
  }
  /** Cancels an algo order. @param ref - which @returns the algo order @throws RequestRuleError when attachedOrderId is present */
  cancelAlgoOrder(ref: AlgoOrderRef) {
    refuseFields(ref, ALGO_QUERY_REFUSED_FIELDS, 'DELETE /api/v1/algo/order');
    return this.call('cancelAlgoOrder', ref);
  }
  /** Queries an algo order. @param ref - which @returns the algo order @throws RequestRuleError when attachedOrderId is present */
  getAlgoOrder(ref: AlgoOrderRef) {
    refuseFields(ref, ALGO_QUERY_REFUSED_FIELDS, 'GET /api/v1/algo/order');
    return this.call('getAlgoOrder', ref);
  }
  /** Open algo orders. @param query - optional sym @returns the list */
  getOpenAlgoOrders(query: { sym?: string } = {}) {
    refuseFields(query, ALGO_QUERY_REFUSED_FIELDS, 'GET /api/v1/algo/openOrders');
    return this.call('getOpenAlgoOrders', query);
  }
  /** Algo order history, one page. @param query - filters @returns the page */
  getAlgoOrderHistory(query: AlgoHistoryQuery = {}) {
    refuseFields(query, ALGO_QUERY_REFUSED_FIELDS, 'GET /api/v1/algo/history/orders');
    return this.call('getAlgoOrderHistory', query);
  }
  /** Cancels all open algo orders, optionally filtered. @param body - filters, sent as query parameters (the spec) @returns the raw data */
  cancelAllAlgoOrders(body: CancelAllAlgoBody = {}) {
    return this.call('cancelAllAlgoOrders', body);
  }

  // Risk: ADL and liquidation.
  /** ADL rank signals. @param query - optional sym (401011 when not supported) @returns the entries */
  getAdlRank(query: { sym?: string } = {}) {
    return this.call('getAdlRank', query);
  }
  /** Complete snapshot of one liquidation event. @param query - its id @returns the event with its nodes */
  getLiquidationEvent(query: { liquidationEventId: string }) {
    return this.call('getLiquidationEvent', query);
  }
}
