import { describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { listFeed } from '../../../backtest/paper-venue/index.ts';
import { aPaperVenue, closedAfterEachTest, T0, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { bboPush, loggedIn, signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const opened = closedAfterEachTest();

async function started(): Promise<PaperVenue> {
  opened.venue = await aPaperVenue();
  return withFirstQuotes(opened.venue);
}

const EQUITY = {
  brokerClientId: 'PAPER-MAIN',
  exchangeCode: 'US',
  productCode: 'AAPL',
  bsFlag: 'B',
  orderType: 'L',
  price: '189.00',
  qty: 10,
};

describe('PLACE_ORDER argument rules', () => {
  it.each([
    [{ conditionCode: 'UT' }, 'triggerPrice', 'is required when conditionCode is UT'],
    [{ orderValidity: 'GTD' }, 'orderExpiryDate', 'is required as YYYY-MM-DD when orderValidity is GTD'],
    [{ orderType: 'M', price: '189.00' }, 'price', 'must be "0" for a market order'],
    [{ conditionCode: 'OCO', triggerPrice: '180' }, 'stopPrice', 'is required when conditionCode is OCO'],
    [{ conditionCode: 'TIME' }, 'timeToSend', 'yyyy-MM-dd HH:mm:ss'],
    [{ exchangeCode: 'HK' }, 'exchangeCode', 'must be US'],
    [{ qty: 1.5 }, 'qty', 'must be a positive integer'],
  ])('refuses %j with 400001 naming %s', async (change, field, rule) => {
    const v = await started();
    const socket = await loggedIn(v.privateWsUrl, v);
    opened.sockets.push(socket);
    socket.send({ action: 'PLACE_ORDER', id: 'bad', args: { ...EQUITY, ...change } });
    const ack = await socket.waitFor((f) => f?.event === 'PLACE_ORDER_ACK');
    expect(ack).toMatchObject({ id: 'bad', code: 400001, data: null });
    expect(ack.message).toContain(`PLACE_ORDER args.${field}`);
    expect(ack.message).toContain(rule);
  });

  it('accepts a UT order with its triggerPrice and holds it until the trigger', async () => {
    const v = await started();
    const socket = await loggedIn(v.privateWsUrl, v);
    opened.sockets.push(socket);
    socket.send({
      action: 'PLACE_ORDER',
      id: 'ut',
      args: { ...EQUITY, conditionCode: 'UT', triggerPrice: '195.00', reference: 'ut-1' },
    });
    expect(await socket.waitFor((f) => f?.event === 'PLACE_ORDER_ACK')).toMatchObject({
      code: 0,
      data: { orderStatus: 'NEW' },
    });
  });
});

describe('paper venue limits and error codes', () => {
  it('answers HTTP 429 once the history-orders window of 30 requests per 10 s is spent', async () => {
    const v = await started();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++)
      statuses.push((await signedRest(v, 'GET', '/api/v1/trading/history/orders')).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const limited = await signedRest(v, 'GET', '/api/v1/trading/history/orders');
    expect(limited.status).toBe(429);
    // Retry-After: whole seconds until the window frees, at most the window's 10 s.
    expect(limited.headers.get('retry-after')).toMatch(/^(?:[1-9]|10)$/);
    expect((await signedRest(v, 'GET', '/api/v1/trading/orders')).status).toBe(200);
  });

  it("counts the WebSocket place-order limit (1200 per 60 s) on the venue's time, which a replay moves faster than the wall clock", async () => {
    opened.venue = await aPaperVenue({
      feed: listFeed([bboPush(BTC, '100.0', '100.1', T0), bboPush(BTC, '100.0', '100.1', T0 + 61_000)]),
    });
    const v = opened.venue;
    v.feed.step(1);
    await v.feed.until(1);
    const socket = await loggedIn(v.privateWsUrl, v);
    opened.sockets.push(socket);
    const place = (id: string): void =>
      socket.send({
        action: 'place_order',
        id,
        args: {
          sym: BTC,
          side: 'BUY',
          orderType: 'LIMIT',
          orderQty: '0.01',
          limitPrice: '90.0',
          clientOrderId: id,
        },
      });
    for (let i = 0; i <= 1200; i++) place(`p${i}`);
    const ackOf = (id: string) => socket.waitFor((f) => f?.id === id, 20_000);
    expect((await ackOf('p1199')).code).not.toBe(429);
    expect(await ackOf('p1200')).toMatchObject({ code: 429 });
    // A minute of the replay later (a moment of the wall clock), the window has room again.
    v.feed.step(1);
    await v.feed.until(2);
    place('later');
    expect((await ackOf('later')).code).not.toBe(429);
  });

  it('refuses a symList of 21 syms with 401129 and an ADL query for a spot or unknown sym with 401011', async () => {
    const v = await started();
    const symList = Array.from({ length: 21 }, (_, i) => `BINANCE_PERP_C${i}_USDT`);
    expect((await signedRest(v, 'DELETE', '/api/v1/trading/positions', { symList })).body.code).toBe(401129);
    expect((await signedRest(v, 'GET', '/api/v1/adl/rank', { sym: 'OKX_SPOT_ETH_USDT' })).body.code).toBe(
      401011,
    );
    expect((await signedRest(v, 'GET', '/api/v1/adl/rank', { sym: BTC })).body.code).toBe(0);
  });

  it('counts symList entries, duplicates too: 21 of one sym is refused with 401129', async () => {
    const v = await started();
    const symList = Array.from({ length: 21 }, () => BTC);
    expect((await signedRest(v, 'DELETE', '/api/v1/trading/positions', { symList })).body).toMatchObject({
      code: 401129,
      message: expect.stringContaining('symList has 21 syms, at most 20'),
    });
  });

  it('answers 401011 with a message that does not repeat the code', async () => {
    const v = await started();
    const reply = await signedRest(v, 'GET', '/api/v1/adl/rank', { sym: 'OKX_SPOT_ETH_USDT' });
    expect(reply.body).toMatchObject({
      code: 401011,
      message: expect.stringMatching(/^the sym is not supported/),
    });
  });

  it('produces the loan codes 406014, 406015, 406017, 406018 and 406022', async () => {
    const v = await started();
    const borrow = (coin: string, amount: string) =>
      signedRest(v, 'POST', '/api/v1/trading/marginLoan/loan/borrow', { exchange: 'BINANCE', coin, amount });
    const repay = (amount: string) =>
      signedRest(v, 'POST', '/api/v1/trading/marginLoan/loan/repay', {
        exchange: 'BINANCE',
        coin: 'USDT',
        amount,
      });
    expect((await borrow('DOGE', '1')).body.code).toBe(406014);
    expect((await borrow('USDT', '0')).body.code).toBe(406015);
    expect((await repay('1')).body.code).toBe(406022);
    expect((await borrow('USDC', '20')).body.code).toBe(406017);
    expect((await borrow('USDT', '30000')).body.code).toBe(406018);
    expect((await borrow('USDT', '100')).body.code).toBe(0);
    expect((await repay('500')).body.code).toBe(406022);
    const orders = await signedRest(v, 'GET', '/api/v1/trading/marginLoan/loan/orders');
    expect(orders.body.data).toMatchObject({ totalSize: 1, list: [{ type: 'BORROW', amount: '100' }] });
  });

  it('refuses closing a position with more reduce-only open orders than the limit with 401129', async () => {
    const v = await started();
    const buy = await signedRest(v, 'POST', '/api/v1/trading/order', {
      sym: BTC,
      side: 'BUY',
      orderType: 'MARKET',
      orderQty: '1',
    });
    expect(buy.body.code).toBe(0);
    for (let i = 0; i < 51; i++) {
      const sell = {
        sym: BTC,
        side: 'SELL',
        orderType: 'LIMIT',
        orderQty: '0.01',
        limitPrice: '200.0',
        reduceOnly: true,
        clientOrderId: `ro-${i}`,
      };
      expect((await signedRest(v, 'POST', '/api/v1/trading/order', sell)).body.code).toBe(0);
    }
    const close = await signedRest(v, 'DELETE', '/api/v1/trading/position', { sym: BTC });
    expect(close.body.code).toBe(401129);
    expect(close.body.message).toContain('reduce-only');
  });

  it('refuses a borrow that would push the loan-to-value ratio over the limit with 406019', async () => {
    const { D } = await import('../../../core/model/index.ts');
    const v = await aPaperVenue({ startingBalances: { USDT: D(10_000) } });
    opened.venue = v;
    const reply = await signedRest(v, 'POST', '/api/v1/trading/marginLoan/loan/borrow', {
      exchange: 'BINANCE',
      coin: 'USDT',
      amount: '15000',
    });
    expect(reply.body.code).toBe(406019);
  });

  it('refuses a borrow without the margin to carry it with 406016, and any borrow at the LTV warning level with 406020', async () => {
    const { D } = await import('../../../core/model/index.ts');
    const terms = { annualRate: D('0.08'), userQuota: D(1_000_000), pool: D(1_000_000) };
    const v = await aPaperVenue({
      startingBalances: { USDT: D(1_000) },
      loans: {
        assets: { 'BINANCE:USDT': terms },
        maintenanceMarginRate: D(1),
        maxBorrowLtv: D('0.99'),
        ltvWarningLevel: D('0.05'),
      },
    });
    opened.venue = v;
    const borrow = (amount: string) =>
      signedRest(v, 'POST', '/api/v1/trading/marginLoan/loan/borrow', {
        exchange: 'BINANCE',
        coin: 'USDT',
        amount,
      });
    expect((await borrow('2000')).body.code).toBe(406016);
    expect((await borrow('100')).body.code).toBe(0);
    expect((await borrow('1')).body.code).toBe(406020);
  });

  it('refuses an executions window older than 7 days on the recent endpoints and newer than 7 days on the archive', async () => {
    const v = await started();
    const now = v.now();
    const eightDays = now - 8 * 86_400_000;
    expect((await signedRest(v, 'GET', '/api/v1/trading/executions', { begin: eightDays })).body.code).toBe(
      400001,
    );
    expect(
      (await signedRest(v, 'GET', '/api/v1/trading/archive/executions/pageable', { begin: eightDays })).body
        .code,
    ).toBe(0);
    expect(
      (await signedRest(v, 'GET', '/api/v1/trading/archive/executions/pageable', { begin: now - 1000 })).body
        .code,
    ).toBe(400001);
  });

  it('pages order history: page, pageSize, totalSize, list', async () => {
    const v = await started();
    for (let i = 0; i < 3; i++) {
      await signedRest(v, 'POST', '/api/v1/trading/order', {
        sym: BTC,
        side: 'BUY',
        orderType: 'LIMIT',
        orderQty: '1',
        limitPrice: '90.0',
        clientOrderId: `p-${i}`,
      });
    }
    const page2 = await signedRest(v, 'GET', '/api/v1/trading/history/orders', { page: 2, pageSize: 2 });
    expect(page2.body.data).toMatchObject({ page: 2, pageSize: 2, totalSize: 3 });
    expect((page2.body.data as { list: unknown[] }).list).toHaveLength(1);
    expect((await signedRest(v, 'GET', '/api/v1/trading/history/orders', { pageSize: 101 })).body.code).toBe(
      400001,
    );
  });
});
