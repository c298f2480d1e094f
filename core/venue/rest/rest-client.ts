import { type Logger, pino } from 'pino';
import { RequestRuleError } from '../errors.ts';
import type { RequestParams, Signer } from '../signing.ts';
import { type JitterSource, realTimer, type TimerPort } from '../timer-port.ts';
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
import {
  type CollectionRecordQuery,
  type FeeRateQuery,
  MAX_FEE_RATE_PORTFOLIOS,
  type SetSubFeeRateBody,
  type SubFeeRateQuery,
} from '../wire/broker.ts';
import type { PageWire } from '../wire/common.ts';
import type { ExecutionsQuery } from '../wire/execution.ts';
import type { LoanPoolQuery, MarginLoanBody, MarginLoanHistoryQuery } from '../wire/loan.ts';
import type {
  CancelOrderBody,
  CancelOrdersBody,
  OpenOrdersQuery,
  OrderHistoryQuery,
  OrderRef,
  PlaceOrderBody,
  ReplaceOrderBody,
} from '../wire/order.ts';
import {
  type ClosePositionBody,
  type ClosePositionsBody,
  MAX_CLOSE_POSITIONS_SYMS,
  type PositionHistoryQuery,
  type PositionsQuery,
} from '../wire/position.ts';
import { createInboundCounters, type InboundCounters } from '../ws/inbound-counters.ts';
import {
  ENDPOINTS,
  type EndpointName,
  type EndpointReply,
  type PagedEndpointName,
  type RateLimitGroup,
} from './endpoints.ts';
import { type HttpTransport, undiciTransport } from './http-transport.ts';
import { paginate } from './paginate.ts';
import { type RateLimit, RateLimiter } from './rate-limiter.ts';
import { type RawRestReply, type RestCallContext, type RetryPolicy, restCall } from './rest-call.ts';

/** The spec's rate limits (per trading portfolio) and the public query-order limit. */
export const DEFAULT_RATE_LIMITS: Readonly<Record<RateLimitGroup, RateLimit | null>> = {
  historyOrders: { limit: 30, windowMs: 10_000 },
  historyPosition: { limit: 30, windowMs: 10_000 },
  statement: { limit: 100, windowMs: 60_000 },
  queryOrder: { limit: 1200, windowMs: 60_000 },
  other: null,
};

/** Options of the REST client. */
export interface RestClientOptions {
  /** The spec's `{base_url}`. */
  readonly baseUrl: string;
  readonly signer: Signer;
  /** Time and timers; real by default. */
  readonly timer?: TimerPort;
  /** Jitter of the retry backoff. */
  readonly random?: JitterSource;
  /** Per-request timeout, ms (default 10 000). */
  readonly timeoutMs?: number;
  /** Retries of idempotent GETs (default 3 retries, 200 ms doubling to 3 s). */
  readonly retry?: RetryPolicy;
  /** Overrides of the rate limits per group; null = no limit. The client serves one portfolio. */
  readonly rateLimits?: Partial<Record<RateLimitGroup, RateLimit | null>>;
  /**
   * Where the deprecated legacy loan methods go: `detail` (default) routes them to the `_detail`
   * endpoints; `legacy` still calls the old paths.
   */
  readonly legacyLoanEndpoints?: 'detail' | 'legacy';
  /** pageSize used by the iterators when none is given (spec: not shown; Keel's choice 100). */
  readonly defaultPageSize?: number;
  /** Counts reply outcomes (shared with other clients if wanted); fresh counters by default. */
  readonly counters?: InboundCounters;
  /** Recorder tap: every raw reply body (never headers or keys). */
  readonly onRaw?: (raw: RawRestReply) => void;
  readonly logger?: Logger;
  /** Replaces the undici transport (tests). */
  readonly transport?: HttpTransport;
}

type Query = object;

/**
 * The venue's REST interface: one typed method per endpoint, signed requests, envelope decoding,
 * typed errors, queued rate limits, GET retries and paginated iterators.
 */
export class VenueRestClient {
  private readonly ctx: RestCallContext;
  private readonly limiters = new Map<RateLimitGroup, RateLimiter>();
  private readonly legacy: 'detail' | 'legacy';
  private readonly pageSize: number;

  /** @param options - base address, signer and policies */
  constructor(options: RestClientOptions) {
    const timer = options.timer ?? realTimer();
    this.ctx = {
      transport: options.transport ?? undiciTransport(options.baseUrl),
      signer: options.signer,
      timer,
      random: options.random ?? { next: () => 0.5 },
      timeoutMs: options.timeoutMs ?? 10_000,
      retry: options.retry ?? { maxRetries: 3, baseMs: 200, capMs: 3_000 },
      logger: options.logger ?? pino({ name: 'keel.venue.rest', level: 'warn' }),
      counters: options.counters ?? createInboundCounters(),
      ...(options.onRaw === undefined ? {} : { onRaw: options.onRaw }),
    };
    const limits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
    for (const [group, rate] of Object.entries(limits) as Array<[RateLimitGroup, RateLimit | null]>) {
      if (rate !== null) this.limiters.set(group, new RateLimiter(rate, timer));
    }
    this.legacy = options.legacyLoanEndpoints ?? 'detail';
    this.pageSize = options.defaultPageSize ?? 100;
  }

  /**
   * Calls an endpoint of {@link ENDPOINTS} by name, after its rate limiter lets it through.
   * @param name - the endpoint
   * @param params - query (GET) or body
   * @returns the decoded reply data
   * @throws VenueError, DecodeError or VenueTimeoutError (see restCall)
   */
  async call<N extends EndpointName>(name: N, params: Query = {}): Promise<EndpointReply<N>> {
    const def = ENDPOINTS[name];
    const limiter = this.limiters.get(def.limit);
    if (limiter !== undefined) await limiter.acquire();
    return (await restCall(this.ctx, def, params as RequestParams)) as EndpointReply<N>;
  }

  /**
   * Iterates every entry of a paginated endpoint.
   * @param name - a paged endpoint
   * @param query - filters; page and pageSize are managed by the iterator
   * @param pageSize - entries per page; default the client's
   * @returns an async iterator over the list entries
   * @example
   * for await (const order of rest.pages('getOrderHistory', { filterExecuted: true })) { ... }
   */
  pages<N extends PagedEndpointName>(
    name: N,
    query: Query = {},
    pageSize = this.pageSize,
  ): AsyncGenerator<EndpointReply<N> extends PageWire<infer T> ? T : never> {
    return paginate((page) => this.call(name, { ...query, page, pageSize }) as Promise<never>);
  }

  /** Reply outcomes: `frames` replies read, `replies` decoded, `control` venue error codes, `malformed` undecodable. */
  get counters(): InboundCounters {
    return this.ctx.counters;
  }

  /** Requests waiting in a rate limiter, by group. @returns the queue length per group */
  queuedByGroup(): Readonly<Partial<Record<RateLimitGroup, number>>> {
    return Object.fromEntries([...this.limiters].map(([group, limiter]) => [group, limiter.queued]));
  }

  /** Closes the connection pool. @returns when closed */
  close(): Promise<void> {
    return this.ctx.transport.close();
  }

  // Orders.
  /** Places an order (POST /api/v1/trading/order). @param body - the order @returns orderId and clientOrderId */
  placeOrder(body: PlaceOrderBody) {
    if (body.clientOrderId !== undefined && body.clientOrderId.length > 40) {
      throw new RequestRuleError('clientOrderId', 'must be at most 40 characters');
    }
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
    if (body.symList.length > MAX_CLOSE_POSITIONS_SYMS) {
      throw new RequestRuleError(
        'symList',
        `has ${body.symList.length} symbols, at most 20 allowed (401129)`,
      );
    }
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
    if ((query.portfolioIds?.length ?? 0) > MAX_FEE_RATE_PORTFOLIOS) {
      throw new RequestRuleError('portfolioIds', 'at most 20 portfolios per fee-rate query');
    }
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
    if (!/^\d+(?:\.\d{1,2})?$/.test(body.markup)) {
      throw new RequestRuleError('markup', 'must be bps with at most two decimals (precision 0.01 bps)');
    }
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
    refuse(body, ALGO_PLACE_REFUSED_FIELDS, 'POST /api/v1/algo/order');
    return this.call('placeAlgoOrder', body);
  }
  /** Replaces an algo order. @param body - ref and new terms @returns the algo order */
  replaceAlgoOrder(body: ReplaceAlgoOrderBody) {
    return this.call('replaceAlgoOrder', body);
  }
  /** Cancels an algo order. @param ref - which @returns the algo order @throws RequestRuleError when attachedOrderId is present */
  cancelAlgoOrder(ref: AlgoOrderRef) {
    refuse(ref, ALGO_QUERY_REFUSED_FIELDS, 'DELETE /api/v1/algo/order');
    return this.call('cancelAlgoOrder', ref);
  }
  /** Queries an algo order. @param ref - which @returns the algo order @throws RequestRuleError when attachedOrderId is present */
  getAlgoOrder(ref: AlgoOrderRef) {
    refuse(ref, ALGO_QUERY_REFUSED_FIELDS, 'GET /api/v1/algo/order');
    return this.call('getAlgoOrder', ref);
  }
  /** Open algo orders. @param query - optional sym @returns the list */
  getOpenAlgoOrders(query: { sym?: string } = {}) {
    refuse(query, ALGO_QUERY_REFUSED_FIELDS, 'GET /api/v1/algo/openOrders');
    return this.call('getOpenAlgoOrders', query);
  }
  /** Algo order history, one page. @param query - filters @returns the page */
  getAlgoOrderHistory(query: AlgoHistoryQuery = {}) {
    refuse(query, ALGO_QUERY_REFUSED_FIELDS, 'GET /api/v1/algo/history/orders');
    return this.call('getAlgoOrderHistory', query);
  }
  /** Cancels all open algo orders, optionally filtered. @param body - filters @returns the raw data */
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

  // Loans.
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
   * @deprecated deprecated by the venue from end of October 2026: use {@link VenueRestClient.getLoanInfo}. Routed to `info_detail` unless `legacyLoanEndpoints: 'legacy'`.
   * @returns the entries
   */
  getLoanInfoLegacy() {
    return this.legacy === 'legacy' ? this.call('getLoanInfoLegacy') : this.getLoanInfo();
  }
  /**
   * Legacy coin discount.
   * @deprecated use {@link VenueRestClient.getCoinDiscount}; routed to `discount_detail` by default.
   * @returns the entries
   */
  getCoinDiscountLegacy() {
    return this.legacy === 'legacy' ? this.call('getCoinDiscountLegacy') : this.getCoinDiscount();
  }
  /**
   * Legacy user interest.
   * @deprecated use {@link VenueRestClient.getUserInterest}; routed to `user_detail` by default.
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

function refuse(params: object, fields: readonly string[], where: string): void {
  for (const field of fields) {
    if (field in params) throw new RequestRuleError(field, `is not accepted by ${where}`);
  }
}
