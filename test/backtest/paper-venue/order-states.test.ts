import { describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { type CollectingSocket, loggedIn, signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const opened = closedAfterEachTest();

async function startedWithSocket(): Promise<{ venue: PaperVenue; socket: CollectingSocket }> {
  opened.venue = await aPaperVenue();
  const venue = await withFirstQuotes(opened.venue);
  const socket = await loggedIn(venue.privateWsUrl, venue);
  opened.sockets.push(socket);
  return { venue, socket };
}

/** What the Orders channel pushed of one order so far, as `action orderState`, in order. */
function pushed(socket: CollectingSocket, ref: string): string[] {
  const states: string[] = [];
  for (const frame of socket.frames) {
    if (!frame.startsWith('{')) continue;
    const message = JSON.parse(frame) as {
      channel?: string;
      data?: { clientOrderId: string; action: string; orderState: string }[];
    };
    if (message.channel !== 'Orders') continue;
    for (const order of message.data ?? [])
      if (order.clientOrderId === ref) states.push(`${order.action} ${order.orderState}`);
  }
  return states;
}

/** Waits until the Orders channel pushed the order in `state`. */
function pushOf(socket: CollectingSocket, ref: string, state: string): Promise<unknown> {
  return socket.waitFor(
    (f) =>
      f?.channel === 'Orders' &&
      // biome-ignore lint/suspicious/noExplicitAny: a pushed wire order, read field by field
      f.data.some((o: any) => o.clientOrderId === ref && o.orderState === state),
  );
}

describe('paper venue: order states on the wire, as the live venue reports them', () => {
  it('acks a resting limit NEW, pushes it NEW then OPEN, shows it OPEN over REST, and answers its cancel OPEN / CANCEL_PENDING', async () => {
    const { venue, socket } = await startedWithSocket();
    const placed = await signedRest(venue, 'POST', '/api/v1/trading/order', {
      sym: BTC,
      side: 'BUY',
      orderType: 'LIMIT',
      orderQty: '1',
      limitPrice: '95.0',
      clientOrderId: 'rest-1',
    });
    expect(placed.body.data).toMatchObject({ clientOrderId: 'rest-1', orderState: 'NEW' });
    await pushOf(socket, 'rest-1', 'OPEN');
    expect(pushed(socket, 'rest-1')).toEqual(['PLACE NEW', 'PLACE OPEN']);

    const detail = await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId: 'rest-1' });
    expect(detail.body.data).toMatchObject({ orderState: 'OPEN', action: 'PLACE', executedQty: '0' });
    const open = await signedRest(venue, 'GET', '/api/v1/trading/orders', { sym: BTC });
    expect(open.body.data).toEqual([
      expect.objectContaining({ clientOrderId: 'rest-1', orderState: 'OPEN' }),
    ]);

    const cancel = await signedRest(venue, 'DELETE', '/api/v1/trading/order', { clientOrderId: 'rest-1' });
    expect(cancel.body.data).toMatchObject({ orderState: 'OPEN', action: 'CANCEL_PENDING' });
    await pushOf(socket, 'rest-1', 'CANCELLED');
    expect(pushed(socket, 'rest-1')).toEqual(['PLACE NEW', 'PLACE OPEN', 'CANCEL_COMPLETED CANCELLED']);
  });

  it('never pushes OPEN for a market order or a marketable limit that fill at once (place_order)', async () => {
    const { socket } = await startedWithSocket();
    socket.send({
      action: 'place_order',
      id: 'm',
      args: { sym: BTC, side: 'BUY', orderType: 'MARKET', orderQty: '1', clientOrderId: 'mkt-1' },
    });
    socket.send({
      action: 'place_order',
      id: 'l',
      args: {
        sym: BTC,
        side: 'BUY',
        orderType: 'LIMIT',
        orderQty: '1',
        limitPrice: '100.1',
        clientOrderId: 'lim-1',
      },
    });
    await pushOf(socket, 'mkt-1', 'FILLED');
    await pushOf(socket, 'lim-1', 'FILLED');
    expect(pushed(socket, 'mkt-1')).toEqual(['PLACE NEW', 'FILL FILLED']);
    expect(pushed(socket, 'lim-1')).toEqual(['PLACE NEW', 'FILL FILLED']);
  });

  it('answers the cancel of an order not resting yet (a held HOLD order) with the state it is in, NEW', async () => {
    const { venue, socket } = await startedWithSocket();
    socket.send({
      action: 'PLACE_ORDER',
      id: 'h',
      args: {
        brokerClientId: 'PAPER-MAIN',
        exchangeCode: 'US',
        productCode: 'AAPL',
        bsFlag: 'B',
        orderType: 'L',
        price: '189.00',
        qty: 10,
        conditionCode: 'HOLD',
        reference: 'held-1',
      },
    });
    expect(await socket.waitFor((f) => f?.event === 'PLACE_ORDER_ACK')).toMatchObject({
      code: 0,
      data: { orderStatus: 'NEW' },
    });
    await pushOf(socket, 'held-1', 'NEW');
    const cancel = await signedRest(venue, 'DELETE', '/api/v1/trading/order', { clientOrderId: 'held-1' });
    expect(cancel.body.data).toMatchObject({ orderState: 'NEW', action: 'CANCEL_PENDING' });
    await pushOf(socket, 'held-1', 'CANCELLED');
    expect(pushed(socket, 'held-1')).toEqual(['PLACE NEW', 'CANCEL_COMPLETED CANCELLED']);
  });
});
