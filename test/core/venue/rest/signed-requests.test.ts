import { createHmac } from 'node:crypto';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { hmacSigner, VenueRestClient } from '../../../../core/venue/index.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { venueRestRig } from '../../../kit/venue-rest-rig.ts';
import {
  ok,
  page,
  WIRE_ACCOUNT,
  WIRE_ALGO_ORDER,
  WIRE_EXECUTION,
  WIRE_LIQ_EVENT,
  WIRE_ORDER,
  WIRE_POSITION,
} from '../../../kit/venue-wire-samples.ts';

const KEY = 'test-api-key';
const SECRET = 'test-secret';
const NONCE = '1700000000';
const ML = '/api/v1/trading/marginLoan/loan';

interface Case {
  readonly name: string;
  readonly call: (c: VenueRestClient) => Promise<unknown>;
  readonly method: string;
  readonly path: string;
  /** Parameters as they must arrive (query for GET, JSON body otherwise, unless `in` says query). */
  readonly params: Record<string, unknown>;
  /** Set where the spec names the parameters of a non-GET endpoint query parameters. */
  readonly in?: 'query';
  /** The exact text the signature covers, before `&<nonce>`, written by hand. */
  readonly signed: string;
  readonly data: unknown;
  readonly expectReply: (reply: unknown) => void;
}

const order = WIRE_ORDER;
const feeRate = {
  portfolioId: 'p-1',
  makerFeeRate: '0.0002',
  takerFeeRate: '0.0005',
  groups: [
    { groupName: 'MAIN', makerFeeRate: '0.0001', takerFeeRate: '0.0004', syms: ['BINANCE_PERP_BTC_USDT'] },
  ],
};
const loanOrder = {
  loanOrderId: 'lo-1',
  type: 'BORROW',
  exchange: 'BINANCE',
  coin: 'USDT',
  amount: '100',
  state: 'SUCCESS',
};

/**
 * Place-order args with a take-profit attachment: the JSON body must be exactly these. The args
 * objects are frozen, so a client that changed its arguments in place would throw, not pass.
 */
const placeOrderArgs = Object.freeze({
  sym: 'BINANCE_PERP_BTC_USDT',
  side: 'BUY',
  orderType: 'LIMIT',
  orderQty: '0.01',
  limitPrice: '60000',
  clientOrderId: 'c-1',
  positionSide: 'NONE',
  tpTriggerPrice: '65000',
  tpTriggerType: 'MarkPrice',
  tpPrice: '0',
} as const);
/**
 * Place-algo-order args of a trigger order, not in sorted order (the signature must sort them):
 * the JSON body must be exactly these.
 */
const placeAlgoOrderArgs = Object.freeze({
  sym: 'S',
  side: 'SELL',
  qty: '1',
  price: '0',
  algoOrderType: 'TRIGGER',
  conditionType: 'LTE',
  triggerType: 'MarkPrice',
  triggerPrice: '55000',
} as const);
/** Cancel-all-algo-orders args with every filter: the query string must be exactly these (the spec's "query filters"). */
const cancelAllAlgoOrdersArgs = Object.freeze({
  sym: 'S',
  exchangeType: 'BINANCE',
  businessType: 'PERP',
  algoOrderType: 'TRIGGER',
  conditionType: 'GTE',
} as const);

const listFirst = (field: string, value: unknown) => (reply: unknown) =>
  expect((reply as Array<Record<string, unknown>>)[0]?.[field]).toEqual(value);
const pageFirst = (field: string, value: unknown) => (reply: unknown) => {
  const p = reply as { totalSize: number; list: Array<Record<string, unknown>> };
  expect(p.totalSize).toBe(1);
  expect(p.list[0]?.[field]).toEqual(value);
};
const field = (name: string, value: unknown) => (reply: unknown) =>
  expect((reply as Record<string, unknown>)[name]).toEqual(value);

const CASES: Case[] = [
  {
    name: 'place order',
    call: (c) => c.placeOrder(placeOrderArgs),
    method: 'POST',
    path: '/api/v1/trading/order',
    params: placeOrderArgs,
    signed:
      'clientOrderId=c-1&limitPrice=60000&orderQty=0.01&orderType=LIMIT&positionSide=NONE&side=BUY&sym=BINANCE_PERP_BTC_USDT&tpPrice=0&tpTriggerPrice=65000&tpTriggerType=MarkPrice',
    data: { orderId: 'o-1', clientOrderId: 'c-1' },
    expectReply: field('orderId', 'o-1'),
  },
  {
    name: 'replace order',
    call: (c) => c.replaceOrder({ clientOrderId: 'c-1', sym: 'S', limitPrice: '1' }),
    method: 'PUT',
    path: '/api/v1/trading/order',
    params: { clientOrderId: 'c-1', sym: 'S', limitPrice: '1' },
    signed: 'clientOrderId=c-1&limitPrice=1&sym=S',
    data: { orderId: 'o-1', action: 'AMEND_COMPLETED' },
    expectReply: field('action', 'AMEND_COMPLETED'),
  },
  {
    name: 'cancel order',
    call: (c) => c.cancelOrder({ orderId: 'o-1' }),
    method: 'DELETE',
    path: '/api/v1/trading/order',
    params: { orderId: 'o-1' },
    signed: 'orderId=o-1',
    data: { orderId: 'o-1', action: 'CANCEL_PENDING', actionMsg: 'accepted' },
    expectReply: field('action', 'CANCEL_PENDING'),
  },
  {
    name: 'cancel all orders',
    call: (c) => c.cancelAllOrders({ sym: 'S' }),
    method: 'DELETE',
    path: '/api/v1/trading/cancelAll',
    params: { sym: 'S' },
    signed: 'sym=S',
    data: null,
    expectReply: (r) => expect(r).toBeNull(),
  },
  {
    name: 'query order by clientOrderId',
    call: (c) => c.getOrder({ clientOrderId: 'c-1' }),
    method: 'GET',
    path: '/api/v1/trading/order',
    params: { clientOrderId: 'c-1' },
    signed: 'clientOrderId=c-1',
    data: order,
    expectReply: field('venueExtra', 'kept'),
  },
  {
    name: 'open orders (no parameters)',
    call: (c) => c.getOpenOrders(),
    method: 'GET',
    path: '/api/v1/trading/orders',
    params: {},
    signed: '',
    data: [order],
    expectReply: listFirst('tpTriggerPrice', '65000'),
  },
  {
    name: 'order history with filterExecuted',
    call: (c) => c.getOrderHistory({ filterExecuted: true, page: 1, pageSize: 50 }),
    method: 'GET',
    path: '/api/v1/trading/history/orders',
    params: { filterExecuted: 'true', page: '1', pageSize: '50' },
    signed: 'filterExecuted=true&page=1&pageSize=50',
    data: page([order]),
    expectReply: pageFirst('orderId', 'o-1'),
  },
  {
    name: 'archived order history',
    call: (c) => c.getArchivedOrderHistory({ filterExecuted: false }),
    method: 'GET',
    path: '/api/v1/trading/archive/history/orders',
    params: { filterExecuted: 'false' },
    signed: 'filterExecuted=false',
    data: page([order]),
    expectReply: pageFirst('amendType', ''),
  },
  {
    name: 'executions',
    call: (c) => c.getExecutions({ exchange: 'BINANCE', businessType: 'PERP' }),
    method: 'GET',
    path: '/api/v1/trading/executions',
    params: { exchange: 'BINANCE', businessType: 'PERP' },
    signed: 'businessType=PERP&exchange=BINANCE',
    data: { list: [WIRE_EXECUTION] },
    expectReply: listFirst('rpnl', '0'),
  },
  {
    name: 'executions pageable',
    call: (c) =>
      c.getExecutionsPage({ exchange: 'OKX', businessType: 'SPOT', page: 2, pageSize: 10, limit: 10 }),
    method: 'GET',
    path: '/api/v1/trading/executions/pageable',
    params: { exchange: 'OKX', businessType: 'SPOT', page: '2', pageSize: '10', limit: '10' },
    signed: 'businessType=SPOT&exchange=OKX&limit=10&page=2&pageSize=10',
    data: page([WIRE_EXECUTION]),
    expectReply: pageFirst('execType', 'MAKER'),
  },
  {
    name: 'archived executions pageable',
    call: (c) => c.getArchivedExecutionsPage({ exchange: 'BINANCE', businessType: 'PERP' }),
    method: 'GET',
    path: '/api/v1/trading/archive/executions/pageable',
    params: { exchange: 'BINANCE', businessType: 'PERP' },
    signed: 'businessType=PERP&exchange=BINANCE',
    data: page([WIRE_EXECUTION]),
    expectReply: pageFirst('transactionId', 't-1'),
  },
  {
    name: 'positions without zero-size ones',
    call: (c) => c.getPositions({ ignoreZero: true }),
    method: 'GET',
    path: '/api/v1/trading/position',
    params: { ignoreZero: 'true' },
    signed: 'ignoreZero=true',
    data: [WIRE_POSITION],
    expectReply: listFirst('liqPrice', '54000'),
  },
  {
    name: 'close one position',
    call: (c) => c.closePosition({ sym: 'S', positionSide: 'LONG' }),
    method: 'DELETE',
    path: '/api/v1/trading/position',
    params: { sym: 'S', positionSide: 'LONG' },
    signed: 'positionSide=LONG&sym=S',
    data: null,
    expectReply: (r) => expect(r).toBeNull(),
  },
  {
    name: 'close several positions (symList joined raw)',
    call: (c) => c.closePositions({ symList: ['A', 'B'] }),
    method: 'DELETE',
    path: '/api/v1/trading/positions',
    params: { symList: ['A', 'B'] },
    signed: 'symList=A,B',
    data: null,
    expectReply: (r) => expect(r).toBeNull(),
  },
  {
    name: 'position history',
    call: (c) => c.getPositionHistory({ sym: 'S' }),
    method: 'GET',
    path: '/api/v1/trading/history/position',
    params: { sym: 'S' },
    signed: 'sym=S',
    data: page([{ sym: 'S', positionMode: 'BOTH', positionHistorySide: 'LONG' }]),
    expectReply: pageFirst('positionHistorySide', 'LONG'),
  },
  {
    name: 'statement',
    call: (c) => c.getStatement({ type: 'FUNDING_FEE' }),
    method: 'GET',
    path: '/api/v1/trading/statement',
    params: { type: 'FUNDING_FEE' },
    signed: 'type=FUNDING_FEE',
    data: page([
      { type: 'FUNDING_FEE', coin: 'USDT', beforeBorrow: '0', afterBorrow: '5', deltaAmount: '5' },
    ]),
    expectReply: pageFirst('deltaAmount', '5'),
  },
  {
    name: 'change position mode',
    call: (c) => c.setPositionMode({ positionMode: 'BOTH' }),
    method: 'POST',
    path: '/api/v1/trading/account',
    params: { positionMode: 'BOTH' },
    signed: 'positionMode=BOTH',
    data: null,
    expectReply: (r) => expect(r).toBeNull(),
  },
  {
    name: 'trading account',
    call: (c) => c.getTradingAccount(),
    method: 'GET',
    path: '/api/v1/trading/account',
    params: {},
    signed: '',
    data: WIRE_ACCOUNT,
    expectReply: field('positionMode', 'NET'),
  },
  {
    name: 'sym info',
    call: (c) => c.getSymInfo({ sym: 'S' }),
    method: 'GET',
    path: '/api/v1/trading/sym/info',
    params: { sym: 'S' },
    signed: 'sym=S',
    data: [
      {
        sym: 'S',
        state: 'TRADING',
        pricePrecision: 1,
        qtyPrecision: 3,
        tickSize: '0.1',
        lotSize: '0.001',
        defaultLeverage: '5',
      },
    ],
    expectReply: listFirst('defaultLeverage', '5'),
  },
  {
    name: 'trade account list',
    call: (c) => c.getTradeAccounts(),
    method: 'GET',
    path: '/api/v1/tradeAccount/list',
    params: {},
    signed: '',
    data: [{ portfolioId: 'p-1' }],
    expectReply: listFirst('portfolioId', 'p-1'),
  },
  {
    name: 'account currency info',
    call: (c) => c.getAccountCurrencyInfo({ coin: 'USDT' }),
    method: 'GET',
    path: '/api/v1/asset/getAccountCurrencyInfo',
    params: { coin: 'USDT' },
    signed: 'coin=USDT',
    data: [{ coin: 'USDT', withdrawAvailable: '12.5' }],
    expectReply: listFirst('withdrawAvailable', '12.5'),
  },
  {
    name: 'currencies',
    call: (c) => c.getCurrencies(),
    method: 'GET',
    path: '/api/v1/asset/currencies',
    params: {},
    signed: '',
    data: [{ coin: 'BTC', network: 'BTC', withdrawFee: '0.0002' }],
    expectReply: listFirst('withdrawFee', '0.0002'),
  },
  {
    name: 'system status',
    call: (c) => c.getSystemStatus(),
    method: 'GET',
    path: '/api/v1/system/status',
    params: {},
    signed: '',
    data: { status: 'NORMAL' },
    expectReply: field('status', 'NORMAL'),
  },
  {
    name: 'fee rate of several portfolios',
    call: (c) => c.getFeeRate({ portfolioIds: ['p-1', 'p-2'] }),
    method: 'GET',
    path: '/api/v1/broker/feeRate',
    params: { portfolioIds: 'p-1,p-2' },
    signed: 'portfolioIds=p-1,p-2',
    data: [feeRate],
    expectReply: (r) => expect((r as Array<{ groups: unknown[] }>)[0]?.groups).toHaveLength(1),
  },
  {
    name: 'sub-portfolio fee rate',
    call: (c) => c.getSubFeeRate(),
    method: 'GET',
    path: '/api/v1/broker/sub/feeRate',
    params: {},
    signed: '',
    data: feeRate,
    expectReply: field('takerFeeRate', '0.0005'),
  },
  {
    name: 'set sub-portfolio markup',
    call: (c) => c.setSubFeeRate({ subPortfolioId: 'sp-1', markup: '0.25' }),
    method: 'POST',
    path: '/api/v1/broker/subFeeRate',
    params: { subPortfolioId: 'sp-1', markup: '0.25' },
    signed: 'markup=0.25&subPortfolioId=sp-1',
    data: null,
    expectReply: (r) => expect(r).toBeNull(),
  },
  {
    name: 'get fee rate of sub-portfolio',
    call: (c) => c.getSubPortfolioFeeRate({ subPortfolioId: 'sp-1' }),
    method: 'GET',
    path: '/api/v1/broker/subFeeRate',
    params: { subPortfolioId: 'sp-1' },
    signed: 'subPortfolioId=sp-1',
    data: { ...feeRate, markup: '0.25' },
    expectReply: field('markup', '0.25'),
  },
  {
    name: 'collection records',
    call: (c) => c.getCollectionRecords({ subPortfolioId: 'sp-1', sym: 'S' }),
    method: 'GET',
    path: '/api/v1/broker/collectionRecord',
    params: { subPortfolioId: 'sp-1', sym: 'S' },
    signed: 'subPortfolioId=sp-1&sym=S',
    data: page([{ sym: 'S', feePrice: '0.5' }]),
    expectReply: pageFirst('feePrice', '0.5'),
  },
  {
    name: 'place algo order',
    call: (c) => c.placeAlgoOrder(placeAlgoOrderArgs),
    method: 'POST',
    path: '/api/v1/algo/order',
    params: placeAlgoOrderArgs,
    signed:
      'algoOrderType=TRIGGER&conditionType=LTE&price=0&qty=1&side=SELL&sym=S&triggerPrice=55000&triggerType=MarkPrice',
    data: WIRE_ALGO_ORDER,
    expectReply: field('algoOrderId', 'a-1'),
  },
  {
    name: 'replace algo order',
    call: (c) => c.replaceAlgoOrder({ algoOrderId: 'a-1', sym: 'S', triggerPrice: '54000' }),
    method: 'PUT',
    path: '/api/v1/algo/order',
    params: { algoOrderId: 'a-1', sym: 'S', triggerPrice: '54000' },
    signed: 'algoOrderId=a-1&sym=S&triggerPrice=54000',
    data: WIRE_ALGO_ORDER,
    expectReply: field('algoOrderState', 'NEW'),
  },
  {
    name: 'cancel algo order',
    call: (c) => c.cancelAlgoOrder({ algoOrderId: 'a-1' }),
    method: 'DELETE',
    path: '/api/v1/algo/order',
    params: { algoOrderId: 'a-1' },
    signed: 'algoOrderId=a-1',
    data: { ...WIRE_ALGO_ORDER, algoOrderState: 'CANCELLED' },
    expectReply: field('algoOrderState', 'CANCELLED'),
  },
  {
    name: 'query algo order',
    call: (c) => c.getAlgoOrder({ clientAlgoOrderId: 'ca-1' }),
    method: 'GET',
    path: '/api/v1/algo/order',
    params: { clientAlgoOrderId: 'ca-1' },
    signed: 'clientAlgoOrderId=ca-1',
    data: WIRE_ALGO_ORDER,
    expectReply: field('clientAlgoOrderId', 'ca-1'),
  },
  {
    name: 'open algo orders',
    call: (c) => c.getOpenAlgoOrders(),
    method: 'GET',
    path: '/api/v1/algo/openOrders',
    params: {},
    signed: '',
    data: [WIRE_ALGO_ORDER],
    expectReply: listFirst('triggerPrice', '55000'),
  },
  {
    name: 'algo order history',
    call: (c) => c.getAlgoOrderHistory({ sym: 'S' }),
    method: 'GET',
    path: '/api/v1/algo/history/orders',
    params: { sym: 'S' },
    signed: 'sym=S',
    data: page([WIRE_ALGO_ORDER]),
    expectReply: pageFirst('qty', '0.004'),
  },
  {
    name: 'cancel all algo orders with filters',
    call: (c) => c.cancelAllAlgoOrders(cancelAllAlgoOrdersArgs),
    method: 'DELETE',
    path: '/api/v1/algo/cancelAll',
    params: cancelAllAlgoOrdersArgs,
    in: 'query',
    signed: 'algoOrderType=TRIGGER&businessType=PERP&conditionType=GTE&exchangeType=BINANCE&sym=S',
    data: null,
    expectReply: (r) => expect(r).toBeNull(),
  },
  {
    name: 'ADL rank',
    call: (c) => c.getAdlRank({ sym: 'S' }),
    method: 'GET',
    path: '/api/v1/adl/rank',
    params: { sym: 'S' },
    signed: 'sym=S',
    data: [{ sym: 'S', positionId: 'pos-1', positionSide: 'LONG', adlRank: 3 }],
    expectReply: listFirst('adlRank', 3),
  },
  {
    name: 'liquidation event',
    call: (c) => c.getLiquidationEvent({ liquidationEventId: 'l-1' }),
    method: 'GET',
    path: '/api/v1/trading/liquidationEvent',
    params: { liquidationEventId: 'l-1' },
    signed: 'liquidationEventId=l-1',
    data: { liquidationEventId: 'l-1', eventType: 'PARTIAL_LIQUIDATION', nodes: [WIRE_LIQ_EVENT] },
    expectReply: (r) => expect((r as { nodes: unknown[] }).nodes).toHaveLength(1),
  },
  {
    name: 'loan pool',
    call: (c) => c.getLoanPool({ exchange: 'BINANCE', asset: 'USDT' }),
    method: 'GET',
    path: '/api/v1/trading/loan/pool',
    params: { exchange: 'BINANCE', asset: 'USDT' },
    signed: 'asset=USDT&exchange=BINANCE',
    data: { exchange: 'BINANCE', asset: 'USDT', maxLoanable: '1000000' },
    expectReply: field('maxLoanable', '1000000'),
  },
  // Each loan detail endpoint is called twice: by its own method and by the deprecated legacy
  // method, which by default is routed to the same `_detail` path.
  ...(
    [
      [
        'loan info',
        (c: VenueRestClient) => c.getLoanInfo(),
        (c: VenueRestClient) => c.getLoanInfoLegacy(),
        '/api/v1/trading/loan/info_detail',
        { coin: 'USDT', loan: '10' },
      ],
      [
        'coin discount',
        (c: VenueRestClient) => c.getCoinDiscount(),
        (c: VenueRestClient) => c.getCoinDiscountLegacy(),
        '/api/v1/trading/coin/discount_detail',
        { coin: 'BTC', discountRate: '0.95' },
      ],
      [
        'user interest',
        (c: VenueRestClient) => c.getUserInterest(),
        (c: VenueRestClient) => c.getUserInterestLegacy(),
        '/api/v1/interest/user_detail',
        { coin: 'USDT', interest: '0.1' },
      ],
    ] as const
  ).flatMap(([what, call, legacyCall, path, entry]): Case[] =>
    [
      { name: `${what} detail`, call },
      { name: `legacy ${what} routed to _detail`, call: legacyCall },
    ].map((endpoint) => ({
      ...endpoint,
      method: 'GET',
      path,
      params: {},
      signed: '',
      data: [entry],
      expectReply: listFirst('coin', entry.coin),
    })),
  ),
  {
    name: 'margin loan info',
    call: (c) => c.getMarginLoanInfo(),
    method: 'GET',
    path: `${ML}/info`,
    params: {},
    signed: '',
    data: { ltv: '0.2', loans: [{ exchange: 'BINANCE', coin: 'USDT', principal: '100' }] },
    expectReply: field('ltv', '0.2'),
  },
  {
    name: 'margin loan config',
    call: (c) => c.getMarginLoanConfig(),
    method: 'GET',
    path: `${ML}/config`,
    params: {},
    signed: '',
    data: [{ coin: 'USDT', annualInterestRate: '0.08' }],
    expectReply: listFirst('annualInterestRate', '0.08'),
  },
  {
    name: 'margin max loan',
    call: (c) => c.getMarginMaxLoan({ coin: 'USDT' }),
    method: 'GET',
    path: `${ML}/maxLoan`,
    params: { coin: 'USDT' },
    signed: 'coin=USDT',
    data: [{ coin: 'USDT', exchange: 'OKX', maxLoan: '5000' }],
    expectReply: listFirst('maxLoan', '5000'),
  },
  {
    name: 'margin borrow',
    call: (c) => c.marginBorrow({ exchange: 'BINANCE', coin: 'USDT', amount: '100' }),
    method: 'POST',
    path: `${ML}/borrow`,
    params: { exchange: 'BINANCE', coin: 'USDT', amount: '100' },
    signed: 'amount=100&coin=USDT&exchange=BINANCE',
    data: loanOrder,
    expectReply: field('loanOrderId', 'lo-1'),
  },
  {
    name: 'margin repay',
    call: (c) => c.marginRepay({ exchange: 'BINANCE', coin: 'USDT', amount: '40.5' }),
    method: 'POST',
    path: `${ML}/repay`,
    params: { exchange: 'BINANCE', coin: 'USDT', amount: '40.5' },
    signed: 'amount=40.5&coin=USDT&exchange=BINANCE',
    data: { ...loanOrder, type: 'REPAY', amount: '40.5' },
    expectReply: field('type', 'REPAY'),
  },
  {
    name: 'margin loan orders',
    call: (c) => c.getMarginLoanOrders({ coin: 'USDT' }),
    method: 'GET',
    path: `${ML}/orders`,
    params: { coin: 'USDT' },
    signed: 'coin=USDT',
    data: page([loanOrder]),
    expectReply: pageFirst('state', 'SUCCESS'),
  },
  {
    name: 'margin loan statement',
    call: (c) => c.getMarginLoanStatement({ begin: 1, end: 2 }),
    method: 'GET',
    path: `${ML}/statement`,
    params: { begin: '1', end: '2' },
    signed: 'begin=1&end=2',
    data: page([{ type: 'INTEREST', coin: 'USDT', amount: '0.01' }]),
    expectReply: pageFirst('type', 'INTEREST'),
  },
];

describe('venue REST client: signed requests and reply decoding', () => {
  let reply: unknown = null;
  const now = 1_700_000_000_123;
  // The venue's Date agrees with the client's clock, so the nonce is the client's own second.
  const venue = venueRestRig({ signer: hmacSigner(KEY, SECRET), timer: fakeTimer(now) }, () => ({
    body: ok(reply),
    date: new Date(now).toUTCString(),
  }));

  it.each(CASES.map((c) => [c.name, c] as const))(
    '%s: exact method, path, parameters, headers and HMAC',
    async (_, c) => {
      reply = c.data;
      const before = venue.server.requests.length;
      const result = await c.call(venue.client);
      const request = venue.server.requests[before];
      expect(request?.method).toBe(c.method);
      expect(request?.path).toBe(c.path);
      if (c.method === 'GET' || c.in === 'query') {
        expect(request?.query).toEqual(c.params);
        expect(request?.body).toBe('');
      } else {
        expect(JSON.parse(request?.body ?? 'null')).toEqual(c.params);
        expect(request?.query).toEqual({});
      }
      expect(request?.headers['x-mbx-apikey']).toBe(KEY);
      expect(request?.headers.nonce).toBe(NONCE);
      const expected = createHmac('sha256', SECRET).update(`${c.signed}&${NONCE}`).digest('hex');
      expect(request?.headers.signature).toBe(expected);
      c.expectReply(result);
    },
  );

  it('covers every endpoint of the table except the legacy paths (those are routed, see below)', async () => {
    const { ENDPOINTS } = await import('../../../../core/venue/index.ts');
    const covered = new Set(CASES.map((c) => `${c.method} ${c.path}`));
    const missing = Object.values(ENDPOINTS)
      .map((e) => `${e.method} ${e.path}`)
      .filter((k) => !covered.has(k) && !/\/(loan\/info|coin\/discount|interest\/user)$/.test(k));
    expect(missing).toEqual([]);
  });

  it('calls the legacy loan paths only when configured to', async () => {
    const legacy = new VenueRestClient({
      baseUrl: venue.server.url,
      signer: hmacSigner(KEY, SECRET),
      legacyLoanEndpoints: 'legacy',
      logger: pino({ level: 'silent' }),
    });
    reply = [];
    await legacy.getLoanInfoLegacy();
    await legacy.getCoinDiscountLegacy();
    await legacy.getUserInterestLegacy();
    await legacy.close();
    expect(venue.server.requests.slice(-3).map((r) => r.path)).toEqual([
      '/api/v1/trading/loan/info',
      '/api/v1/trading/coin/discount',
      '/api/v1/interest/user',
    ]);
  });
});

describe('venue REST client: array parameters in a query string', () => {
  const now = 1_700_000_000_123;
  const venue = venueRestRig(
    { signer: hmacSigner(KEY, SECRET), timer: fakeTimer(now), signatureArrays: 'json' },
    () => ({ body: ok([]), date: new Date(now).toUTCString() }),
  );

  it('signs a query array as the query carries it, comma-joined, whatever signatureArrays says of bodies', async () => {
    await venue.client.getFeeRate({ portfolioIds: ['p-1', 'p-2'], syms: ['S'] });
    const request = venue.server.requests.at(-1);
    expect(request?.query).toEqual({ portfolioIds: 'p-1,p-2', syms: 'S' });
    const signed = `portfolioIds=p-1,p-2&syms=S&${NONCE}`;
    expect(request?.headers.signature).toBe(createHmac('sha256', SECRET).update(signed).digest('hex'));
  });

  it('still signs a JSON body array as signatureArrays says', async () => {
    await venue.client.closePositions({ symList: ['S', 'T'] });
    const request = venue.server.requests.at(-1);
    const signed = `symList=["S","T"]&${NONCE}`;
    expect(request?.headers.signature).toBe(createHmac('sha256', SECRET).update(signed).digest('hex'));
  });
});
