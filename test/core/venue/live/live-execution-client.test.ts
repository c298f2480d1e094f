import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { D, type Intent, type Order, type UserEvent } from '../../../../core/model/index.ts';
import type { ApprovedIntent } from '../../../../core/risk/index.ts';
import {
  hmacSigner,
  LiveExecutionClient,
  PrivateWsClient,
  VenueRestClient,
} from '../../../../core/venue/index.ts';
import { aLimitOrder } from '../../../kit/intent-builders.ts';
import { type FakeTimer, fakeTimer } from '../../../kit/venue-fake-timer.ts';
import {
  datedOn,
  type FakeVenueHttp,
  type ReceivedRequest,
  startFakeVenueHttp,
} from '../../../kit/venue-http-server.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { ok, WIRE_ACCOUNT, WIRE_ASSET, WIRE_ORDER, WIRE_POSITION } from '../../../kit/venue-wire-samples.ts';
import { type FakeVenueWs, startFakeVenueWs } from '../../../kit/venue-ws-server.ts';

const approved = (intent: Intent) => ({ strategyId: 's1', intent }) as ApprovedIntent;

/** The fake venue's book: orders by clientOrderId, as its REST side reports them. */
type Book = Map<string, Record<string, unknown>>;

/** The venue's loan terms: the rates the loan events carry (the loan info lists none). */
const LOAN_CONFIG = [
  { coin: 'USDT', annualInterestRate: '0.0876' },
  { coin: 'ETH', annualInterestRate: '0.05' },
];

function restVenue(book: Book, extra: (r: ReceivedRequest) => object | undefined = () => undefined) {
  return (request: ReceivedRequest) => {
    const special = extra(request);
    if (special !== undefined) return { body: special };
    const route = `${request.method} ${request.path}`;
    switch (route) {
      case 'GET /api/v1/trading/order': {
        const order = book.get(request.query.clientOrderId ?? '');
        return { body: order === undefined ? { code: 401018, message: 'order not found' } : ok(order) };
      }
      case 'GET /api/v1/trading/orders':
        return { body: ok([...book.values()].filter((o) => o.orderState === 'OPEN')) };
      case 'GET /api/v1/algo/openOrders':
        return { body: ok([]) };
      case 'GET /api/v1/trading/executions/pageable':
        return { body: ok({ page: 1, pageSize: 100, totalSize: 0, list: [] }) };
      case 'GET /api/v1/trading/position':
        return { body: ok([WIRE_POSITION]) };
      case 'GET /api/v1/trading/account':
        return { body: ok({ ...WIRE_ACCOUNT, assets: [WIRE_ASSET] }) };
      case 'GET /api/v1/trading/marginLoan/loan/config':
        return { body: ok(LOAN_CONFIG) };
      default:
        return { body: ok(null) };
    }
  };
}

describe('live execution client', () => {
  let http: FakeVenueHttp;
  let ws: FakeVenueWs;
  let timer: FakeTimer;
  let rest: VenueRestClient;
  let privateWs: PrivateWsClient;
  let live: LiveExecutionClient;
  let events: UserEvent[];
  let book: Book;

  const orderEvents = (ref: string): Order[] =>
    events.flatMap((e) => (e.kind === 'order' && e.order.clientOrderId === ref ? [e.order] : []));
  const placeRequests = () =>
    ws.requests.filter((r) => r.action === 'place_order' || r.action === 'PLACE_ORDER');
  const restCalls = (path: string) => http.requests.filter((r) => r.path === path);

  beforeEach(async () => {
    book = new Map();
    timer = fakeTimer(1_700_000_000_000);
    http = await startFakeVenueHttp(datedOn(timer.now, restVenue(book)));
    ws = await startFakeVenueWs();
    const logger = pino({ level: 'silent' });
    const signer = hmacSigner('k', 's');
    rest = new VenueRestClient({
      baseUrl: http.url,
      signer,
      timer,
      logger,
      retry: { maxRetries: 0, baseMs: 1, capMs: 1 },
    });
    privateWs = new PrivateWsClient({
      url: ws.url,
      signer,
      timer,
      random: { next: () => 0 },
      requestTimeoutMs: 1_000,
      reconnect: { baseMs: 100, capMs: 1_000, minMs: 0 },
      logger,
    });
    live = new LiveExecutionClient({
      rest,
      ws: privateWs,
      timer,
      brokerClientId: 'acct-1',
      lookupSpacingMs: 200,
      logger,
    });
    events = [];
    live.events.subscribe((e) => events.push(e));
    await live.start();
    await waitFor(() => restCalls('/api/v1/trading/orders').length === 1, 'first reconciliation');
    await waitFor(() => events.some((e) => e.kind === 'account'), 'first reconciliation events');
  });
  afterEach(async () => {
    await live.stop();
    await rest.close();
    await ws.close();
    await http.close();
  });

  it('reconciles on the first login: open orders, positions, assets and account as events', () => {
    expect(events.map((e) => e.kind)).toEqual(['position', 'asset', 'account']);
  });

  it('does not pass on a position push older than one of its leg passed on (pushes out of order)', async () => {
    const before = events.length;
    const push = (positionQty: string, updateAt: number, positionSide = 'NONE') =>
      ws.push({ channel: 'Positions', data: [{ ...WIRE_POSITION, positionQty, updateAt, positionSide }] });
    push('0.010', 1_700_000_000_900);
    push('0.006', 1_700_000_000_500);
    push('0.012', 1_700_000_000_900);
    push('0.001', 1_700_000_000_100, 'LONG');
    await waitFor(
      () => events.some((e) => e.kind === 'position' && e.position.positionSide === 'LONG'),
      'the LONG push',
    );
    const passed = events
      .slice(before)
      .flatMap((e) =>
        e.kind === 'position' ? [`${e.position.positionSide} ${e.position.positionQty}`] : [],
      );
    expect(passed).toEqual(['NONE 0.01', 'NONE 0.012', 'LONG 0.001']);
  });

  it('emits a NEW order from the place_order ack', async () => {
    live.submit(approved(aLimitOrder({ ref: 'c-1' })));
    await waitFor(() => orderEvents('c-1').length === 1, 'ack event');
    expect(orderEvents('c-1')[0]).toMatchObject({
      orderState: 'NEW',
      orderId: `o-${placeRequests()[0]?.id}`,
    });
  });

  it('emits the order of a PLACE_ORDER_ACK (orderNo, orderStatus) for a US equity', async () => {
    ws.onRequest = (r) => ({
      event: 'PLACE_ORDER_ACK',
      id: r.id,
      code: 0,
      message: 'success',
      data: { orderNo: 'EQ-7', orderStatus: 'NEW' },
    });
    live.submit(
      approved(aLimitOrder({ ref: 'e-1', sym: 'US_EQUITY_AAPL', qty: D('5'), timeInForce: 'DAY' })),
    );
    await waitFor(() => orderEvents('e-1').length === 1, 'equity ack');
    expect(orderEvents('e-1')[0]).toMatchObject({
      orderId: 'EQ-7',
      orderState: 'NEW',
      sym: 'US_EQUITY_AAPL',
    });
    expect(placeRequests()[0]?.args).toMatchObject({
      brokerClientId: 'acct-1',
      productCode: 'AAPL',
      reference: 'e-1',
    });
  });

  it('reports a venue refusal as a REJECTED order with the code', async () => {
    ws.onRequest = (r) => ({ event: r.action, id: r.id, code: 401023, message: 'insufficient margin' });
    live.submit(approved(aLimitOrder({ ref: 'c-2' })));
    await waitFor(() => orderEvents('c-2').length === 1, 'rejection');
    expect(orderEvents('c-2')[0]).toMatchObject({
      orderState: 'REJECTED',
      reason: '401023 insufficient margin',
    });
  });

  it.each([
    [40000, 'system error'],
    [50001, 'service unavailable'],
  ])(
    'looks up an order whose place the venue answered %i (%s), since it may be live, and reports what the venue holds',
    async (code, message) => {
      ws.onRequest = (r) => {
        book.set(String(r.args.clientOrderId), {
          ...WIRE_ORDER,
          orderId: 'o-venue',
          clientOrderId: r.args.clientOrderId,
        });
        return { event: r.action, id: r.id, code, message };
      };
      live.submit(approved(aLimitOrder({ ref: `c-${code}` })));
      await waitFor(() => orderEvents(`c-${code}`).length === 1, 'lookup result');
      expect(orderEvents(`c-${code}`)[0]).toMatchObject({ orderId: 'o-venue', orderState: 'OPEN' });
      expect(restCalls('/api/v1/trading/order').map((r) => r.query)).toEqual([
        { clientOrderId: `c-${code}` },
      ]);
      expect(placeRequests()).toHaveLength(1);
    },
  );

  it.each([
    ['cancelOrder', { kind: 'cancelOrder', ref: 'k-9', target: 'c-1', sym: 'BINANCE_PERP_BTC_USDT' }],
    [
      'modifyOrder',
      { kind: 'modifyOrder', ref: 'k-9', target: 'c-1', sym: 'BINANCE_PERP_BTC_USDT', price: D('101') },
    ],
  ] as const)(
    'reports a %s the venue answered 40000 (system error) as outcome unknown (-1), so the kernel looks its order up',
    async (_kind, intent) => {
      ws.onRequest = (r) => ({ event: r.action, id: r.id, code: 40000, message: 'system error' });
      live.submit(approved(intent));
      await waitFor(() => events.some((e) => e.kind === 'commandRejected'), 'the rejection');
      expect(events.find((e) => e.kind === 'commandRejected')).toMatchObject({ ref: 'k-9', code: -1 });
    },
  );

  it('reports an order breaking a spec rule as REJECTED without sending it', async () => {
    live.submit(approved(aLimitOrder({ ref: 'e-2', sym: 'US_EQUITY_AAPL', timeInForce: 'GTD' })));
    await waitFor(() => orderEvents('e-2').length === 1, 'local rejection');
    expect(orderEvents('e-2')[0]?.reason).toMatch(/orderExpiryDate/);
    expect(placeRequests()).toHaveLength(0);
  });

  it('after a lost ack looks the order up by reference, finds it, and does not send it again', async () => {
    ws.onRequest = (r) => {
      book.set(String(r.args.clientOrderId), {
        ...WIRE_ORDER,
        orderId: 'o-venue',
        clientOrderId: r.args.clientOrderId,
      });
      return undefined;
    };
    live.submit(approved(aLimitOrder({ ref: 'c-lost' })));
    await waitFor(() => placeRequests().length === 1, 'order reached the venue');
    await timer.advance(1_000);
    await waitFor(() => orderEvents('c-lost').length === 1, 'lookup result');
    expect(orderEvents('c-lost')[0]).toMatchObject({ orderId: 'o-venue', orderState: 'OPEN' });
    expect(restCalls('/api/v1/trading/order').map((r) => r.query)).toEqual([{ clientOrderId: 'c-lost' }]);
    await timer.advance(5_000);
    expect(placeRequests()).toHaveLength(1);
  });

  it('declares an unacked order REJECTED (synthesized) only when the venue still has no such order after the give-up time', async () => {
    ws.onRequest = () => undefined;
    live.submit(approved(aLimitOrder({ ref: 'c-void' })));
    await waitFor(() => placeRequests().length === 1, 'order sent');
    const sentAt = timer.now();
    await advanceUntil(timer, () => orderEvents('c-void').length === 1, 'verdict', 500, 200);
    const verdict = orderEvents('c-void')[0];
    expect(verdict).toMatchObject({ orderState: 'REJECTED', synthesized: true });
    expect(verdict?.reason).toMatch(/no order with clientOrderId c-void .*not re-sent/);
    expect(verdict?.updateAt).toBeGreaterThanOrEqual(sentAt + 30_000);
    expect(restCalls('/api/v1/trading/order').length).toBeGreaterThan(3);
    expect(placeRequests()).toHaveLength(1);
  });

  it('keeps an order the venue books seconds late pending, looks it up again with backoff, and reports it OPEN', async () => {
    ws.onRequest = () => undefined;
    live.submit(approved(aLimitOrder({ ref: 'c-late' })));
    await waitFor(() => placeRequests().length === 1, 'order sent');
    await advanceUntil(timer, () => restCalls('/api/v1/trading/order').length >= 4, 'four lookups', 100, 400);
    expect(orderEvents('c-late')).toEqual([]);
    book.set('c-late', { ...WIRE_ORDER, orderId: 'o-late', clientOrderId: 'c-late' });
    await advanceUntil(timer, () => orderEvents('c-late').length === 1, 'the late order', 500, 100);
    expect(orderEvents('c-late')).toHaveLength(1);
    expect(orderEvents('c-late')[0]).toMatchObject({ orderId: 'o-late', orderState: 'OPEN' });
    const lookups = restCalls('/api/v1/trading/order').length;
    await timer.advance(60_000);
    expect(restCalls('/api/v1/trading/order')).toHaveLength(lookups);
    expect(placeRequests()).toHaveLength(1);
  });

  it('reconnects and reconciles after the venue drops the socket mid-order, without a duplicate order', async () => {
    ws.push({ channel: 'Orders', data: [{ ...WIRE_ORDER, clientOrderId: 'c-old', orderId: 'o-old' }] });
    await waitFor(() => orderEvents('c-old').length === 1, 'earlier open order');
    book.set('c-old', {
      ...WIRE_ORDER,
      clientOrderId: 'c-old',
      orderId: 'o-old',
      orderState: 'FILLED',
      executedQty: '0.010',
    });
    ws.onRequest = (r) => {
      book.set(String(r.args.clientOrderId), {
        ...WIRE_ORDER,
        orderId: 'o-mid',
        clientOrderId: r.args.clientOrderId,
      });
      setImmediate(() => ws.dropAll());
      return undefined;
    };
    live.submit(approved(aLimitOrder({ ref: 'c-mid' })));
    await waitFor(() => orderEvents('c-mid').length === 1, 'lookup after the drop');
    expect(orderEvents('c-mid')[0]).toMatchObject({ orderId: 'o-mid', orderState: 'OPEN' });

    const before = events.length;
    await timer.advance(50);
    await waitFor(() => ws.logins === 2, 'second login');
    await waitFor(() => orderEvents('c-old').length === 2, 'vanished order looked up');
    const corrective = events.slice(before);
    // c-mid is already known as OPEN (from the lookup), so only state that differs is corrected.
    expect(corrective.map((e) => e.kind)).toEqual(['position', 'asset', 'account', 'order']);
    expect(orderEvents('c-old')[1]).toMatchObject({ orderState: 'FILLED' });
    expect(restCalls('/api/v1/trading/orders')).toHaveLength(2);
    expect(placeRequests()).toHaveLength(1);
  });

  it('cancels over REST when the socket is down', async () => {
    await privateWs.close();
    live.submit(approved({ kind: 'cancelOrder', ref: 'k-1', target: 'c-1', sym: 'BINANCE_PERP_BTC_USDT' }));
    await waitFor(() => restCalls('/api/v1/trading/order').some((r) => r.method === 'DELETE'), 'REST cancel');
    const cancel = restCalls('/api/v1/trading/order').find((r) => r.method === 'DELETE');
    expect(JSON.parse(cancel?.body ?? '{}')).toEqual({ clientOrderId: 'c-1', sym: 'BINANCE_PERP_BTC_USDT' });
  });

  it('borrows over REST and reports the loans; a refused borrow becomes commandRejected with the code', async () => {
    http.handler = restVenue(book, (r) =>
      r.path.endsWith('/loan/info')
        ? ok({ ltv: '0.1', loans: [{ exchange: 'BINANCE', coin: 'USDT', principal: '100' }] })
        : r.path.endsWith('/loan/borrow')
          ? ok({ loanOrderId: 'lo-1', type: 'BORROW', coin: 'USDT', amount: '100' })
          : undefined,
    );
    live.submit(
      approved({ kind: 'borrow', ref: 'b-1', exchange: 'BINANCE', coin: 'USDT', amount: D('100') }),
    );
    await waitFor(() => events.some((e) => e.kind === 'loan'), 'loan event');
    expect(restCalls('/api/v1/trading/marginLoan/loan/borrow')).toHaveLength(1);

    http.handler = () => ({ body: { code: 406019, message: 'LTV too high' } });
    live.submit(
      approved({ kind: 'borrow', ref: 'b-2', exchange: 'BINANCE', coin: 'USDT', amount: D('1e6') }),
    );
    await waitFor(() => events.some((e) => e.kind === 'commandRejected'), 'rejection');
    expect(events.find((e) => e.kind === 'commandRejected')).toMatchObject({
      ref: 'b-2',
      intentKind: 'borrow',
      code: 406019,
    });
  });

  it('reports a loan a repay paid off with principal 0, though the loan info lists outstanding loans only', async () => {
    http.handler = restVenue(book, (r) =>
      r.path.endsWith('/loan/info')
        ? ok({ ltv: '0', loans: [{ exchange: 'OKX', coin: 'ETH', principal: '2', interest: '0.001' }] })
        : r.path.endsWith('/loan/repay')
          ? ok({ loanOrderId: 'lo-2', type: 'REPAY', coin: 'USDT', amount: '100' })
          : undefined,
    );
    live.submit(approved({ kind: 'repay', ref: 'r-1', exchange: 'BINANCE', coin: 'USDT', amount: D('100') }));
    await waitFor(() => events.filter((e) => e.kind === 'loan').length === 2, 'loan events');
    const loans = events.flatMap((e) => (e.kind === 'loan' ? [e.loan] : []));
    expect(
      loans.map((l) => [
        l.exchange,
        l.coin,
        l.principal.toFixed(),
        l.interest.toFixed(),
        l.annualRate.toFixed(),
      ]),
    ).toEqual([
      ['OKX', 'ETH', '2', '0.001', '0.05'],
      ['BINANCE', 'USDT', '0', '0', '0.0876'],
    ]);
  });

  it('reports the borrowed loan, at rate 0, when only the loan config cannot be read', async () => {
    http.handler = restVenue(book, (r) =>
      r.path.endsWith('/loan/info')
        ? ok({ ltv: '0.1', loans: [{ exchange: 'BINANCE', coin: 'USDT', principal: '100' }] })
        : r.path.endsWith('/loan/config')
          ? { code: 2003, message: 'no permission' }
          : r.path.endsWith('/loan/borrow')
            ? ok({ loanOrderId: 'lo-1', type: 'BORROW', coin: 'USDT', amount: '100' })
            : undefined,
    );
    live.submit(
      approved({ kind: 'borrow', ref: 'b-1', exchange: 'BINANCE', coin: 'USDT', amount: D('100') }),
    );
    await waitFor(() => events.some((e) => e.kind === 'loan'), 'loan event');
    const loans = events.flatMap((e) => (e.kind === 'loan' ? [e.loan] : []));
    expect(loans.map((l) => [l.coin, l.principal.toFixed(), l.annualRate.toFixed()])).toEqual([
      ['USDT', '100', '0'],
    ]);
  });

  it('reports a borrow the venue accepted as accepted when reading the loans after it fails, and reconciles instead', async () => {
    const accountReadsBefore = restCalls('/api/v1/trading/account').length;
    http.handler = restVenue(book, (r) =>
      r.path.endsWith('/loan/info')
        ? { code: 2003, message: 'no permission' }
        : r.path.endsWith('/loan/borrow')
          ? ok({ loanOrderId: 'lo-1', type: 'BORROW', coin: 'USDT', amount: '100' })
          : undefined,
    );
    live.submit(
      approved({ kind: 'borrow', ref: 'b-3', exchange: 'BINANCE', coin: 'USDT', amount: D('100') }),
    );
    await waitFor(
      () =>
        events.some((e) => e.kind === 'commandRejected') ||
        restCalls('/api/v1/trading/account').length > accountReadsBefore,
      'a reconciliation after the failed read',
    );
    expect(events.filter((e) => e.kind === 'commandRejected')).toEqual([]);
    await waitFor(() => events.filter((e) => e.kind === 'account').length === 2, 'the account reconciled');
    expect(restCalls('/api/v1/trading/marginLoan/loan/borrow')).toHaveLength(1);
  });

  it('reports the loans of a borrow whose loan read failed with the reconciliation that follows it', async () => {
    let infoReads = 0;
    http.handler = restVenue(book, (r) => {
      if (r.path.endsWith('/loan/borrow'))
        return ok({ loanOrderId: 'lo-1', type: 'BORROW', coin: 'USDT', amount: '100' });
      if (!r.path.endsWith('/loan/info')) return undefined;
      infoReads++;
      return infoReads === 1
        ? { code: 2003, message: 'no permission' }
        : ok({
            ltv: '0.1',
            loans: [{ exchange: 'BINANCE', coin: 'USDT', principal: '100', interest: '0.01' }],
          });
    });
    live.submit(
      approved({ kind: 'borrow', ref: 'b-4', exchange: 'BINANCE', coin: 'USDT', amount: D('100') }),
    );
    await waitFor(() => events.some((e) => e.kind === 'loan'), 'the loan reconciled');
    const loan = events.find((e) => e.kind === 'loan');
    expect(
      loan?.kind === 'loan' && [
        loan.loan.coin,
        loan.loan.principal.toFixed(),
        loan.loan.annualRate.toFixed(),
      ],
    ).toEqual(['USDT', '100', '0.0876']);
    expect(restCalls('/api/v1/trading/marginLoan/loan/borrow')).toHaveLength(1);
  });

  it('reconciles orders, positions and assets when only the loans cannot be read, keeping the loans known before', async () => {
    http.handler = restVenue(book, (r) =>
      r.path.endsWith('/loan/info') ? { code: 2003, message: 'no permission' } : undefined,
    );
    const accountsBefore = events.filter((e) => e.kind === 'account').length;
    ws.dropAll();
    await advanceUntil(
      timer,
      () => events.filter((e) => e.kind === 'account').length > accountsBefore,
      'a reconciliation',
      50,
      200,
    );
    expect(events.filter((e) => e.kind === 'loan')).toEqual([]);
  });

  it('reports a position-mode change the venue accepted as accepted when reading the account after it fails, and reconciles the account', async () => {
    let accountReads = 0;
    http.handler = restVenue(book, (r) => {
      if (r.method !== 'GET' || r.path !== '/api/v1/trading/account') return undefined;
      accountReads++;
      return accountReads === 1
        ? { code: 2003, message: 'no permission' }
        : ok({ ...WIRE_ACCOUNT, positionMode: 'BOTH', assets: [WIRE_ASSET] });
    });
    const accountsBefore = events.filter((e) => e.kind === 'account').length;
    live.submit(approved({ kind: 'setPositionMode', ref: 'pm-1', positionMode: 'BOTH' }));
    await waitFor(
      () =>
        events.some((e) => e.kind === 'commandRejected') ||
        events.filter((e) => e.kind === 'account').length > accountsBefore,
      'the account reconciled',
    );
    expect(events.filter((e) => e.kind === 'commandRejected')).toEqual([]);
    expect(events.filter((e) => e.kind === 'account').at(-1)).toMatchObject({
      account: { positionMode: 'BOTH' },
    });
  });

  it('places an algo order over REST with the ref as clientAlgoOrderId', async () => {
    http.handler = restVenue(book, (r) =>
      r.path === '/api/v1/algo/order'
        ? ok({
            algoOrderId: 'a-1',
            clientAlgoOrderId: 'al-1',
            sym: 'BINANCE_PERP_BTC_USDT',
            side: 'SELL',
            algoOrderType: 'TRIGGER',
            conditionType: 'LTE',
            triggerPrice: '50000',
            qty: '1',
            algoOrderState: 'NEW',
          })
        : undefined,
    );
    live.submit(
      approved({
        kind: 'placeAlgoOrder',
        ref: 'al-1',
        sym: 'BINANCE_PERP_BTC_USDT',
        side: 'SELL',
        algoOrderType: 'TRIGGER',
        conditionType: 'LTE',
        triggerType: 'MarkPrice',
        triggerPrice: D('50000'),
        price: D('0'),
        qty: D('1'),
        reduceOnly: true,
        positionSide: 'NONE',
      }),
    );
    await waitFor(() => events.some((e) => e.kind === 'algoOrder'), 'algo event');
    expect(JSON.parse(restCalls('/api/v1/algo/order')[0]?.body ?? '{}')).toMatchObject({
      clientAlgoOrderId: 'al-1',
      triggerPrice: '50000',
    });
  });

  it('polls ADL rank signals into one event per position, telling positions on one sym apart', async () => {
    http.handler = restVenue(book, (r) =>
      r.path === '/api/v1/adl/rank'
        ? ok([
            { sym: 'BINANCE_PERP_BTC_USDT', positionId: 'p-long', positionSide: 'LONG', adlRank: 4 },
            { sym: 'BINANCE_PERP_BTC_USDT', positionId: 'p-short', positionSide: 'SHORT', adlRank: 1 },
          ])
        : undefined,
    );
    await live.refreshAdlRank('BINANCE_PERP_BTC_USDT');
    const ranks = events.flatMap((e) =>
      e.kind === 'adlRank' ? [[e.positionId, e.positionSide, e.rank]] : [],
    );
    expect(ranks).toEqual([
      ['p-long', 'LONG', 4],
      ['p-short', 'SHORT', 1],
    ]);
    expect(restCalls('/api/v1/adl/rank')[0]?.query).toEqual({ sym: 'BINANCE_PERP_BTC_USDT' });
  });
});

describe('live execution client start', () => {
  it('resolves only once the venue state found at login is emitted, so a subscriber holds it before going on', async () => {
    const http = await startFakeVenueHttp(restVenue(new Map()));
    const ws = await startFakeVenueWs();
    const timer = fakeTimer(1_700_000_000_000);
    const logger = pino({ level: 'silent' });
    const signer = hmacSigner('k', 's');
    const rest = new VenueRestClient({ baseUrl: http.url, signer, timer, logger });
    const live = new LiveExecutionClient({
      rest,
      ws: new PrivateWsClient({ url: ws.url, signer, timer, random: { next: () => 0 }, logger }),
      timer,
      logger,
    });
    const kinds: string[] = [];
    live.events.subscribe((e) => kinds.push(e.kind));
    try {
      await live.start();
      expect(kinds).toEqual(['position', 'asset', 'account']);
      expect(http.requests.filter((r) => r.path === '/api/v1/trading/position')).toHaveLength(1);
    } finally {
      await live.stop();
      await rest.close();
      await ws.close();
      await http.close();
    }
  });
});
