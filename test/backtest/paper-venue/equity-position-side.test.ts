import { describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { aaplBuyArgs, type CollectingSocket, loggedIn, signedRest } from '../../kit/paper-venue-client.ts';

const opened = closedAfterEachTest();
async function inBothMode(): Promise<{ venue: PaperVenue; socket: CollectingSocket }> {
  opened.venue = await aPaperVenue();
  const venue = await withFirstQuotes(opened.venue);
  const switched = await signedRest(venue, 'POST', '/api/v1/trading/account', { positionMode: 'BOTH' });
  expect(switched.body.code).toBe(0);
  const socket = await loggedIn(venue.privateWsUrl, venue);
  opened.sockets.push(socket);
  return { venue, socket };
}

async function placed(socket: CollectingSocket, id: string, args: Record<string, unknown>) {
  socket.send({ action: 'PLACE_ORDER', id, args: aaplBuyArgs({ extendedTrading: true, ...args }) });
  return socket.waitFor((f) => f?.event === 'PLACE_ORDER_ACK' && f.id === id);
}

describe('PLACE_ORDER in BOTH position mode', () => {
  it('buys on the LONG leg when flat and the args name no positionSide (Keel\u2019s choice), and a sell reduces it', async () => {
    const { venue, socket } = await inBothMode();
    expect(await placed(socket, 'buy', { reference: 'b1' })).toMatchObject({
      code: 0,
      data: { orderStatus: 'NEW' },
    });
    const bought = await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId: 'b1' });
    expect(bought.body.data).toMatchObject({ positionSide: 'LONG', orderState: 'FILLED' });
    const sell = await placed(socket, 'sell', { reference: 's1', bsFlag: 'S', price: '190.00', qty: 4 });
    expect(sell).toMatchObject({ code: 0 });
    const positions = await signedRest(venue, 'GET', '/api/v1/trading/position', { ignoreZero: true });
    expect(positions.body.data).toEqual([
      expect.objectContaining({ sym: 'US_EQUITY_AAPL', positionSide: 'LONG', positionQty: '6' }),
    ]);
  });

  it('sells short on the SHORT leg when flat, as an equities account sells past what it holds', async () => {
    const { venue, socket } = await inBothMode();
    const sell = await placed(socket, 'sell', { reference: 's1', bsFlag: 'S', price: '190.00', qty: 4 });
    expect(sell).toMatchObject({ code: 0, data: { orderStatus: 'NEW' } });
    const order = await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId: 's1' });
    expect(order.body.data).toMatchObject({ positionSide: 'SHORT', orderState: 'FILLED', executedQty: '4' });
    const positions = await signedRest(venue, 'GET', '/api/v1/trading/position', { ignoreZero: true });
    expect(positions.body.data).toEqual([
      expect.objectContaining({ sym: 'US_EQUITY_AAPL', positionSide: 'SHORT', positionQty: '-4' }),
    ]);
  });

  it('covers the SHORT leg held with a BUY before buying on the LONG leg', async () => {
    const { venue, socket } = await inBothMode();
    await placed(socket, 'sell', { reference: 's1', bsFlag: 'S', price: '190.00', qty: 4 });
    expect(await placed(socket, 'cover', { reference: 'b1', qty: 4 })).toMatchObject({ code: 0 });
    const cover = await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId: 'b1' });
    expect(cover.body.data).toMatchObject({ positionSide: 'SHORT', orderState: 'FILLED', executedQty: '4' });
    const positions = await signedRest(venue, 'GET', '/api/v1/trading/position', { ignoreZero: true });
    expect(positions.body.data).toEqual([]);
  });

  it('refuses a SELL larger than the LONG leg held rather than trimming it to the leg', async () => {
    const { venue, socket } = await inBothMode();
    await placed(socket, 'buy', { reference: 'b1', qty: 1 });
    const sell = await placed(socket, 'sell', { reference: 's3', bsFlag: 'S', price: '190.00', qty: 3 });
    expect(sell).toMatchObject({ code: 400001, data: null });
    expect(sell.message).toContain('3 is more than the 1 the LONG leg holds');
    const positions = await signedRest(venue, 'GET', '/api/v1/trading/position', { ignoreZero: true });
    expect(positions.body.data).toEqual([
      expect.objectContaining({ sym: 'US_EQUITY_AAPL', positionSide: 'LONG', positionQty: '1' }),
    ]);
  });

  it('honours a positionSide arg and refuses one that is not NONE, LONG or SHORT', async () => {
    const { venue, socket } = await inBothMode();
    expect(
      await placed(socket, 'short', { reference: 'x1', bsFlag: 'S', price: '190.00', positionSide: 'SHORT' }),
    ).toMatchObject({ code: 0 });
    const order = await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId: 'x1' });
    expect(order.body.data).toMatchObject({ positionSide: 'SHORT' });
    const bad = await placed(socket, 'bad', { reference: 'x2', positionSide: 'BOTH' });
    expect(bad).toMatchObject({ code: 400001, data: null });
    expect(bad.message).toContain('positionSide');
  });
});
