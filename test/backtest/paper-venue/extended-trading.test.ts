import { describe, expect, it } from 'vitest';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { aaplBuyArgs, loggedIn, signedRest } from '../../kit/paper-venue-client.ts';

const opened = closedAfterEachTest();

describe('PLACE_ORDER extendedTrading', () => {
  it('fills an equity order after hours only when it allows extended trading', async () => {
    opened.venue = await aPaperVenue();
    const venue = await withFirstQuotes(opened.venue);
    const socket = await loggedIn(venue.privateWsUrl, venue);
    opened.sockets.push(socket);
    socket.send({ action: 'PLACE_ORDER', id: 'r', args: aaplBuyArgs({ reference: 'regular' }) });
    socket.send({
      action: 'PLACE_ORDER',
      id: 'x',
      args: aaplBuyArgs({ reference: 'extended', extendedTrading: true }),
    });
    await socket.waitFor((f) => f?.event === 'PLACE_ORDER_ACK' && f.id === 'x');
    const state = async (clientOrderId: string) =>
      (await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId })).body.data;
    expect(await state('extended')).toMatchObject({ orderState: 'FILLED' });
    expect(await state('regular')).toMatchObject({ orderState: 'NEW', executedQty: '0' });
  });
});
