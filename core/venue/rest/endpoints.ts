import { z } from 'zod';
import {
  accountCurrencyInfoWireSchema,
  accountWireSchema,
  currencyWireSchema,
  statementWireSchema,
  symInfoWireSchema,
  systemStatusWireSchema,
  tradeAccountWireSchema,
} from '../wire/account.ts';
import { algoOrderWireSchema } from '../wire/algo.ts';
import { collectionRecordWireSchema, feeRateWireSchema } from '../wire/broker.ts';
import { listOf, pageOf } from '../wire/common.ts';
import { executionWireSchema } from '../wire/execution.ts';
import { liquidationEventDetailWireSchema } from '../wire/liquidation.ts';
import {
  coinDiscountWireSchema,
  loanInfoWireSchema,
  loanPoolWireSchema,
  marginLoanConfigWireSchema,
  marginLoanInfoWireSchema,
  marginLoanOrderWireSchema,
  marginLoanStatementWireSchema,
  marginMaxLoanWireSchema,
  userInterestWireSchema,
} from '../wire/loan.ts';
import { orderAckWireSchema, orderWireSchema } from '../wire/order.ts';
import { adlRankWireSchema, positionHistoryWireSchema, positionWireSchema } from '../wire/position.ts';

/** HTTP methods the venue uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Rate-limit groups. The spec gives history orders and history position 30 / 10 s and the
 * statement 100 / 60 s per trading portfolio; the public docs give query order 1200 / 60 s.
 * Everything else is `other` (not shown: configurable).
 */
export type RateLimitGroup = 'historyOrders' | 'historyPosition' | 'statement' | 'queryOrder' | 'other';

/** One REST endpoint: method, path, reply data schema and rate-limit group. */
export interface EndpointDef {
  readonly method: HttpMethod;
  readonly path: string;
  readonly reply: z.ZodType;
  readonly limit: RateLimitGroup;
  /**
   * Where its parameters go: GETs always in the query string; other methods in a JSON body
   * (VENUE-NOTES), unless the spec names them query parameters for that endpoint (`query`).
   */
  readonly params?: 'query';
  /**
   * Set on a paged endpoint whose entries are decoded one by one with this schema: an entry that
   * misses or mistypes a field is left out (logged and counted as malformed) and the others kept,
   * so one bad entry does not fail the whole listing. `reply` still says what a whole reply is.
   */
  readonly entries?: z.ZodType;
}

const loose = z.unknown();
const ML = '/api/v1/trading/marginLoan/loan';

function ep<R extends z.ZodType>(
  method: HttpMethod,
  path: string,
  reply: R,
  limit: RateLimitGroup = 'other',
  params?: 'query',
) {
  return { method, path, reply, limit, ...(params === undefined ? {} : { params }) } as const;
}

/**
 * Every REST endpoint of the spec, plus cancel order / cancel all orders per public venue docs.
 * The paper venue routes with the same table. Methods the spec leaves open are Keel's choice:
 * Change Account PositionMode is POST and set sub-portfolio markup is POST (the spec calls both
 * changes); Get Fee Rate of Subportfolio is GET on the same path.
 */
export const ENDPOINTS = {
  placeOrder: ep('POST', '/api/v1/trading/order', orderAckWireSchema),
  replaceOrder: ep('PUT', '/api/v1/trading/order', orderAckWireSchema),
  cancelOrder: ep('DELETE', '/api/v1/trading/order', orderAckWireSchema),
  cancelAllOrders: ep('DELETE', '/api/v1/trading/cancelAll', loose),
  getOrder: ep('GET', '/api/v1/trading/order', orderWireSchema, 'queryOrder'),
  getOpenOrders: ep('GET', '/api/v1/trading/orders', listOf(orderWireSchema)),
  getOrderHistory: ep('GET', '/api/v1/trading/history/orders', pageOf(orderWireSchema), 'historyOrders'),
  getArchivedOrderHistory: ep('GET', '/api/v1/trading/archive/history/orders', pageOf(orderWireSchema)),
  getExecutions: ep('GET', '/api/v1/trading/executions', listOf(executionWireSchema)),
  // Decoded entry by entry: the catch-up after a reconnect lists it, and one execution Keel cannot
  // read must not keep every other fill (and the order states held back for them) from being reported.
  getExecutionsPage: {
    ...ep('GET', '/api/v1/trading/executions/pageable', pageOf(executionWireSchema)),
    entries: executionWireSchema,
  },
  getArchivedExecutionsPage: ep(
    'GET',
    '/api/v1/trading/archive/executions/pageable',
    pageOf(executionWireSchema),
  ),
  getPositions: ep('GET', '/api/v1/trading/position', listOf(positionWireSchema)),
  closePosition: ep('DELETE', '/api/v1/trading/position', loose),
  closePositions: ep('DELETE', '/api/v1/trading/positions', loose),
  getPositionHistory: ep(
    'GET',
    '/api/v1/trading/history/position',
    pageOf(positionHistoryWireSchema),
    'historyPosition',
  ),
  getStatement: ep('GET', '/api/v1/trading/statement', pageOf(statementWireSchema), 'statement'),
  setPositionMode: ep('POST', '/api/v1/trading/account', loose),
  getTradingAccount: ep('GET', '/api/v1/trading/account', accountWireSchema),
  getSymInfo: ep('GET', '/api/v1/trading/sym/info', listOf(symInfoWireSchema)),
  getTradeAccounts: ep('GET', '/api/v1/tradeAccount/list', listOf(tradeAccountWireSchema)),
  getAccountCurrencyInfo: ep(
    'GET',
    '/api/v1/asset/getAccountCurrencyInfo',
    listOf(accountCurrencyInfoWireSchema),
  ),
  getCurrencies: ep('GET', '/api/v1/asset/currencies', listOf(currencyWireSchema)),
  getSystemStatus: ep('GET', '/api/v1/system/status', systemStatusWireSchema),
  getFeeRate: ep('GET', '/api/v1/broker/feeRate', listOf(feeRateWireSchema)),
  getSubFeeRate: ep('GET', '/api/v1/broker/sub/feeRate', feeRateWireSchema),
  setSubFeeRate: ep('POST', '/api/v1/broker/subFeeRate', loose),
  getSubPortfolioFeeRate: ep('GET', '/api/v1/broker/subFeeRate', feeRateWireSchema),
  getCollectionRecords: ep('GET', '/api/v1/broker/collectionRecord', pageOf(collectionRecordWireSchema)),
  placeAlgoOrder: ep('POST', '/api/v1/algo/order', algoOrderWireSchema),
  replaceAlgoOrder: ep('PUT', '/api/v1/algo/order', algoOrderWireSchema),
  cancelAlgoOrder: ep('DELETE', '/api/v1/algo/order', algoOrderWireSchema),
  getAlgoOrder: ep('GET', '/api/v1/algo/order', algoOrderWireSchema),
  getOpenAlgoOrders: ep('GET', '/api/v1/algo/openOrders', listOf(algoOrderWireSchema)),
  getAlgoOrderHistory: ep('GET', '/api/v1/algo/history/orders', pageOf(algoOrderWireSchema)),
  // The spec: "Optional query filters: sym, exchangeType, businessType, algoOrderType, conditionType".
  cancelAllAlgoOrders: ep('DELETE', '/api/v1/algo/cancelAll', loose, 'other', 'query'),
  getAdlRank: ep('GET', '/api/v1/adl/rank', listOf(adlRankWireSchema)),
  getLiquidationEvent: ep('GET', '/api/v1/trading/liquidationEvent', liquidationEventDetailWireSchema),
  getLoanPool: ep('GET', '/api/v1/trading/loan/pool', loanPoolWireSchema),
  getLoanInfoDetail: ep('GET', '/api/v1/trading/loan/info_detail', listOf(loanInfoWireSchema)),
  getCoinDiscountDetail: ep('GET', '/api/v1/trading/coin/discount_detail', listOf(coinDiscountWireSchema)),
  getUserInterestDetail: ep('GET', '/api/v1/interest/user_detail', listOf(userInterestWireSchema)),
  getLoanInfoLegacy: ep('GET', '/api/v1/trading/loan/info', listOf(loanInfoWireSchema)),
  getCoinDiscountLegacy: ep('GET', '/api/v1/trading/coin/discount', listOf(coinDiscountWireSchema)),
  getUserInterestLegacy: ep('GET', '/api/v1/interest/user', listOf(userInterestWireSchema)),
  getMarginLoanInfo: ep('GET', `${ML}/info`, marginLoanInfoWireSchema),
  getMarginLoanConfig: ep('GET', `${ML}/config`, listOf(marginLoanConfigWireSchema)),
  getMarginMaxLoan: ep('GET', `${ML}/maxLoan`, listOf(marginMaxLoanWireSchema)),
  marginBorrow: ep('POST', `${ML}/borrow`, marginLoanOrderWireSchema),
  marginRepay: ep('POST', `${ML}/repay`, marginLoanOrderWireSchema),
  getMarginLoanOrders: ep('GET', `${ML}/orders`, pageOf(marginLoanOrderWireSchema)),
  getMarginLoanStatement: ep('GET', `${ML}/statement`, pageOf(marginLoanStatementWireSchema)),
} as const satisfies Record<string, EndpointDef>;

/** The name of a REST endpoint in {@link ENDPOINTS}. */
export type EndpointName = keyof typeof ENDPOINTS;

/** The decoded reply data of an endpoint. */
export type EndpointReply<N extends EndpointName> = z.output<(typeof ENDPOINTS)[N]['reply']>;

/** Endpoints that answer pages `{ page, pageSize, totalSize, list }`. */
export type PagedEndpointName = {
  [N in EndpointName]: EndpointReply<N> extends { list: unknown[]; totalSize: number } ? N : never;
}[EndpointName];
