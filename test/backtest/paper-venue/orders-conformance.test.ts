import { describe, expect, it } from 'vitest';
import { PAPER_RATE_LIMITS, type PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { D } from '../../../core/model/index.ts';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { loggedIn, signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const opened = closedAfterEachTest();

async function started(): Promise<PaperVenue> {
  opened.venue = await aPaperVenue();
  return withFirstQuotes(opened.venue);
}

describe('paper venue REST orders', () => {
  it('places a limit order, reports it open, fills it when the market crosses, and lists the execution', async () => {
    const venue = await started();
    const placed = await signedRest(venue, 'POST', '/api/v1/trading/order', {
      sym: BTC,
      side: 'BUY',
      orderType: 'LIMIT',
      orderQty: '1',
      limitPrice: '99.0',
      clientOrderId: 'buy-1',
    });
    expect(placed.body).toMatchObject({
      code: 0,
      message: 'success',
      data: { clientOrderId: 'buy-1', orderState: 'NEW' },
    });
    const open = await signedRest(venue, 'GET', '/api/v1/trading/orders', { sym: BTC });
    expect(open.body.data).toEqual([
      expect.objectContaining({ clientOrderId: 'buy-1', orderState: 'OPEN', executedQty: '0' }),
    ]);
    venue.feed.step(1);
    await venue.feed.until(3);
    const order = await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId: 'buy-1' });
    expect(order.body.data).toMatchObject({ orderState: 'FILLED', executedQty: '1' });
    const fills = await signedRest(venue, 'GET', '/api/v1/trading/executions', { sym: BTC });
    expect(fills.body.data).toEqual([
      expect.objectContaining({ clientOrderId: 'buy-1', quantity: '1', price: '99' }),
    ]);
    const page = await signedRest(venue, 'GET', '/api/v1/trading/executions/pageable', {
      page: 1,
      pageSize: 10,
    });
    expect(page.body.data).toMatchObject({ page: 1, pageSize: 10, totalSize: 1 });
    const positions = await signedRest(venue, 'GET', '/api/v1/trading/position', { ignoreZero: true });
    expect(positions.body.data).toEqual([expect.objectContaining({ sym: BTC, positionQty: '1' })]);
  });

  it('answers 401018 for an unknown order, 406010 for a reused clientOrderId and 401058 for cancelling a final order', async () => {
    const venue = await started();
    const unknown = await signedRest(venue, 'GET', '/api/v1/trading/order', { orderId: 'nope' });
    expect(unknown.body.code).toBe(401018);
    const body = {
      sym: BTC,
      side: 'BUY',
      orderType: 'LIMIT',
      orderQty: '1',
      limitPrice: '90.0',
      clientOrderId: 'dup',
    };
    expect((await signedRest(venue, 'POST', '/api/v1/trading/order', body)).body.code).toBe(0);
    const again = await signedRest(venue, 'POST', '/api/v1/trading/order', body);
    expect(again.body.code).toBe(406010);
    const cancel = await signedRest(venue, 'DELETE', '/api/v1/trading/order', { clientOrderId: 'dup' });
    expect(cancel.body.data).toMatchObject({ orderState: 'OPEN', action: 'CANCEL_PENDING' });
    const twice = await signedRest(venue, 'DELETE', '/api/v1/trading/order', { clientOrderId: 'dup' });
    expect(twice.body.code).toBe(401058);
  });

  it('answers 401023 to a modify the margin cannot carry and keeps the order as it was', async () => {
    opened.venue = await aPaperVenue({ startingBalances: { USDT: D(1000) } });
    const venue = await withFirstQuotes(opened.venue);
    const body = { sym: BTC, side: 'BUY', orderType: 'LIMIT', orderQty: '1', limitPrice: '95.0' };
    expect(
      (await signedRest(venue, 'POST', '/api/v1/trading/order', { ...body, clientOrderId: 'grow' })).body
        .code,
    ).toBe(0);
    // 106 x 95 / leverage 10 = 1007 of initial margin on 1000 USDT
    const grown = await signedRest(venue, 'PUT', '/api/v1/trading/order', {
      clientOrderId: 'grow',
      orderQty: '106',
    });
    expect(grown.body).toMatchObject({ code: 401023 });
    const order = await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId: 'grow' });
    expect(order.body.data).toMatchObject({ orderQty: '1', limitPrice: '95' });
  });

  it('answers 400009 for an unknown sym and 400001 naming the field for a malformed body', async () => {
    const venue = await started();
    const badSym = await signedRest(venue, 'POST', '/api/v1/trading/order', {
      sym: 'BINANCE_PERP_NOPE_USDT',
      side: 'BUY',
      orderType: 'MARKET',
      orderQty: '1',
    });
    expect(badSym.body.code).toBe(400009);
    const badSide = await signedRest(venue, 'POST', '/api/v1/trading/order', {
      sym: BTC,
      side: 'UP',
      orderType: 'MARKET',
      orderQty: '1',
    });
    expect(badSide.body.code).toBe(400001);
    expect(badSide.body.message).toContain('side');
  });

  it('refuses a stop-loss or take-profit price without its trigger price, rather than placing the order unprotected', async () => {
    const venue = await started();
    const entry = { sym: BTC, side: 'BUY', orderType: 'LIMIT', orderQty: '1', limitPrice: '95' };
    const noSlTrigger = await signedRest(venue, 'POST', '/api/v1/trading/order', {
      ...entry,
      clientOrderId: 'sl-orphan',
      slPrice: '90',
    });
    expect(noSlTrigger.body).toMatchObject({ code: 400001 });
    expect(noSlTrigger.body.message).toContain('slTriggerPrice is required with slPrice');
    const noTpTrigger = await signedRest(venue, 'POST', '/api/v1/trading/order', {
      ...entry,
      clientOrderId: 'tp-orphan',
      tpTriggerType: 'LastPrice',
    });
    expect(noTpTrigger.body.message).toContain('tpTriggerPrice is required with tpTriggerType');
    const open = await signedRest(venue, 'GET', '/api/v1/trading/orders', {});
    expect(open.body.data).toEqual([]);
  });
});

describe('paper venue private WebSocket', () => {
  it('acks PLACE_ORDER with orderNo and NEW, then pushes the order on the Orders channel after login', async () => {
    const venue = await started();
    const socket = await loggedIn(venue.privateWsUrl, venue);
    opened.sockets.push(socket);
    socket.send({
      action: 'PLACE_ORDER',
      id: 'r1',
      args: {
        brokerClientId: 'PAPER-MAIN',
        exchangeCode: 'US',
        productCode: 'AAPL',
        bsFlag: 'B',
        orderType: 'L',
        price: '189.00',
        qty: 10,
        reference: 'eq-1',
      },
    });
    const ack = await socket.waitFor((f) => f?.event === 'PLACE_ORDER_ACK');
    expect(ack).toMatchObject({ id: 'r1', code: 0, message: 'success', data: { orderStatus: 'NEW' } });
    expect(typeof ack.data.orderNo).toBe('string');
    const push = await socket.waitFor((f) => f?.channel === 'Orders');
    expect(push.data[0]).toMatchObject({ clientOrderId: 'eq-1', orderId: ack.data.orderNo });
    expect(socket.frames.findIndex((f) => f.includes('PLACE_ORDER_ACK'))).toBeLessThan(
      socket.frames.findIndex((f) => f.includes('"Orders"')),
    );
  });

  it('pushes nothing on a connection logged in with onlyTrade, but still answers its order actions', async () => {
    const { wsLogin: _oncePerSecond, ...limits } = PAPER_RATE_LIMITS;
    const venue = await aPaperVenue({ rateLimits: limits });
    opened.venue = venue;
    await withFirstQuotes(venue);
    const quiet = await loggedIn(venue.privateWsUrl, venue, true);
    const loud = await loggedIn(venue.privateWsUrl, venue, false);
    opened.sockets.push(quiet, loud);
    quiet.send({
      action: 'place_order',
      id: 'p1',
      args: {
        sym: BTC,
        side: 'BUY',
        orderType: 'LIMIT',
        orderQty: '1',
        limitPrice: '95.0',
        clientOrderId: 'q-1',
      },
    });
    const reply = await quiet.waitFor((f) => f?.event === 'place_order');
    expect(reply).toMatchObject({ code: 0, data: { clientOrderId: 'q-1' } });
    await loud.waitFor((f) => f?.channel === 'Orders');
    expect(quiet.frames.some((f) => f.includes('"channel"'))).toBe(false);
  });

  it('modifies and batch-cancels with replace_order and cancel_orders, the results arriving on Orders', async () => {
    const venue = await started();
    const socket = await loggedIn(venue.privateWsUrl, venue);
    opened.sockets.push(socket);
    for (const ref of ['m-1', 'm-2']) {
      socket.send({
        action: 'place_order',
        id: ref,
        args: {
          sym: BTC,
          side: 'BUY',
          orderType: 'LIMIT',
          orderQty: '1',
          limitPrice: '95.0',
          clientOrderId: ref,
        },
      });
      await socket.waitFor((f) => f?.event === 'place_order' && f.id === ref);
    }
    socket.send({
      action: 'replace_order',
      id: 'r',
      args: { clientOrderId: 'm-1', sym: BTC, limitPrice: '96.0' },
    });
    expect(await socket.waitFor((f) => f?.event === 'replace_order')).toMatchObject({
      code: 0,
      data: { action: 'AMEND_COMPLETED' },
    });
    await socket.waitFor((f) => f?.channel === 'Orders' && f.data[0].limitPrice === '96');
    socket.send({ action: 'cancel_orders', id: 'c', args: { sym: BTC } });
    expect(await socket.waitFor((f) => f?.event === 'cancel_orders')).toMatchObject({
      code: 0,
      data: { clientOrderIds: ['m-1', 'm-2'] },
    });
    await socket.waitFor(
      (f) =>
        f?.channel === 'Orders' && f.data[0].clientOrderId === 'm-2' && f.data[0].orderState === 'CANCELLED',
    );
  });

  it('answers text ping with pong, refuses order actions before login, and refuses a bad login signature with 60009', async () => {
    const venue = await started();
    const socket = await loggedIn(venue.privateWsUrl, { ...venue });
    opened.sockets.push(socket);
    socket.send('ping');
    await socket.waitFor((f) => f === 'pong');
    const { openCollecting } = await import('../../kit/paper-venue-client.ts');
    const anonymous = await openCollecting(venue.privateWsUrl);
    opened.sockets.push(anonymous);
    anonymous.send({ action: 'place_order', id: 'x', args: { sym: BTC } });
    expect(await anonymous.waitFor((f) => f?.event === 'place_order')).toMatchObject({ code: 60009 });
    anonymous.send({
      action: 'login',
      args: {
        apiKey: venue.apiKey,
        timestamp: String(Math.floor(Date.now() / 1000)),
        sign: 'ab',
        onlyTrade: false,
      },
    });
    expect(await anonymous.waitFor((f) => f?.event === 'login')).toMatchObject({ code: 60009 });
  });

  it('refuses a second login of the same key within a second with 60009 (per public venue docs: 1 login per second)', async () => {
    const venue = await started();
    opened.sockets.push(await loggedIn(venue.privateWsUrl, venue));
    await expect(loggedIn(venue.privateWsUrl, venue)).rejects.toThrow(/60009/);
  });

  it('closes a connection that stays idle longer than the idle timeout', async () => {
    const venue = await aPaperVenue({ idleTimeoutMs: 100 });
    opened.venue = venue;
    const socket = await loggedIn(venue.privateWsUrl, venue);
    opened.sockets.push(socket);
    const code = await new Promise<number>((resolve) => socket.ws.once('close', (c) => resolve(c)));
    expect(code).toBe(4000);
  });
});
