import { describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { type CollectingSocket, loggedIn, signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ORDER = '/api/v1/trading/order';
const opened = closedAfterEachTest();

async function started(): Promise<{ venue: PaperVenue; socket: CollectingSocket }> {
  opened.venue = await aPaperVenue();
  const venue = await withFirstQuotes(opened.venue);
  const socket = await loggedIn(venue.privateWsUrl, venue);
  opened.sockets.push(socket);
  return { venue, socket };
}

/** The clientOrderIds of every Orders push so far, in order. */
function orderPushRefs(socket: CollectingSocket): string[] {
  return socket.frames
    .map((text) => JSON.parse(text))
    .filter((frame) => frame?.channel === 'Orders')
    .flatMap((frame) =>
      frame.data.map(
        (o: { clientOrderId: string; orderState: string }) => `${o.clientOrderId} ${o.orderState}`,
      ),
    );
}

describe('paper venue: a place refused synchronously leaves no order behind', () => {
  it('over REST: error envelope, no Orders push, no lookup hit, and the clientOrderId works on a corrected retry', async () => {
    const { venue, socket } = await started();
    const refused = await signedRest(venue, 'POST', ORDER, {
      sym: BTC,
      side: 'BUY',
      orderType: 'LIMIT',
      orderQty: '0.001',
      limitPrice: '99.0',
      clientOrderId: 'fixme',
    });
    expect(refused.body).toEqual({
      code: 400001,
      message: 'bad parameters: notional is below minNotional 1',
      data: null,
    });
    expect((await signedRest(venue, 'GET', ORDER, { clientOrderId: 'fixme' })).body.code).toBe(401018);
    const retry = await signedRest(venue, 'POST', ORDER, {
      sym: BTC,
      side: 'BUY',
      orderType: 'LIMIT',
      orderQty: '0.1',
      limitPrice: '99.0',
      clientOrderId: 'fixme',
    });
    expect(retry.body).toMatchObject({ code: 0, data: { clientOrderId: 'fixme', orderState: 'NEW' } });
    await socket.waitFor((f) => f?.channel === 'Orders' && f.data[0].orderState === 'OPEN');
    expect(orderPushRefs(socket)).toEqual(['fixme NEW', 'fixme OPEN']);
  });

  it('over the private WebSocket: place_order and PLACE_ORDER refusals push nothing and keep no reference', async () => {
    const { venue, socket } = await started();
    socket.send({
      action: 'place_order',
      id: 'p1',
      args: {
        sym: BTC,
        side: 'BUY',
        orderType: 'LIMIT',
        orderQty: '0.001',
        limitPrice: '99.0',
        clientOrderId: 'w1',
      },
    });
    expect(await socket.waitFor((f) => f?.id === 'p1')).toMatchObject({ code: 400001, data: null });
    const equity = {
      brokerClientId: 'PAPER-MAIN',
      exchangeCode: 'US',
      bsFlag: 'B',
      orderType: 'L',
      price: '189.00',
      qty: 10,
    };
    socket.send({
      action: 'PLACE_ORDER',
      id: 'e1',
      args: { ...equity, productCode: 'ZZZZ', reference: 'dup' },
    });
    expect(await socket.waitFor((f) => f?.id === 'e1')).toMatchObject({ code: 400009, data: null });
    expect((await signedRest(venue, 'GET', ORDER, { clientOrderId: 'dup' })).body.code).toBe(401018);
    socket.send({
      action: 'PLACE_ORDER',
      id: 'e2',
      args: { ...equity, productCode: 'AAPL', reference: 'dup' },
    });
    expect(await socket.waitFor((f) => f?.id === 'e2')).toMatchObject({
      code: 0,
      data: { orderStatus: 'NEW' },
    });
    await socket.waitFor((f) => f?.channel === 'Orders' && f.data[0].clientOrderId === 'dup');
    expect(orderPushRefs(socket)[0]).toBe('dup NEW');
    expect(
      orderPushRefs(socket).filter((line) => line.startsWith('w1') || line.endsWith('REJECTED')),
    ).toEqual([]);
  });
});
