import { describe, expect, it } from 'vitest';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { loggedIn, signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const opened = closedAfterEachTest();

describe('paper venue order fields (per public venue docs)', () => {
  it('writes exchangeType, businessType, leverage, the last fill and empty actionMsg / amendType / cancelType on pushes and lookups', async () => {
    opened.venue = await aPaperVenue();
    const venue = await withFirstQuotes(opened.venue);
    const socket = await loggedIn(venue.privateWsUrl, venue);
    opened.sockets.push(socket);
    const body = { sym: BTC, side: 'BUY', orderType: 'MARKET', orderQty: '2', clientOrderId: 'm1' };
    expect((await signedRest(venue, 'POST', '/api/v1/trading/order', body)).body.code).toBe(0);
    const filled = await socket.waitFor((f) => f?.channel === 'Orders' && f.data[0].orderState === 'FILLED');
    const expected = {
      exchangeType: 'BINANCE',
      businessType: 'PERP',
      leverage: '10',
      lastExecutedQty: '2',
      lastExecutedPrice: '100.1',
      actionMsg: '',
      amendType: '',
      cancelType: '',
    };
    expect(filled.data[0]).toMatchObject(expected);
    const looked = await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId: 'm1' });
    expect(looked.body.data).toMatchObject(expected);
    const first = await socket.waitFor((f) => f?.channel === 'Orders' && f.data[0].orderState === 'NEW');
    expect(first.data[0]).toMatchObject({ lastExecutedQty: '0', lastExecutedPrice: '0', cancelType: '' });
  });
});

describe('paper venue execution fields (per public venue docs)', () => {
  it('writes exchangeType and businessType of the sym on Trades pushes and the executions endpoint', async () => {
    opened.venue = await aPaperVenue();
    const venue = await withFirstQuotes(opened.venue);
    const socket = await loggedIn(venue.privateWsUrl, venue);
    opened.sockets.push(socket);
    const body = { sym: BTC, side: 'BUY', orderType: 'MARKET', orderQty: '2', clientOrderId: 'm1' };
    expect((await signedRest(venue, 'POST', '/api/v1/trading/order', body)).body.code).toBe(0);
    const trade = await socket.waitFor((f) => f?.channel === 'Trades');
    const expected = { sym: BTC, clientOrderId: 'm1', exchangeType: 'BINANCE', businessType: 'PERP' };
    expect(trade.data[0]).toMatchObject(expected);
    const looked = await signedRest(venue, 'GET', '/api/v1/trading/executions', { sym: BTC });
    expect(looked.body.data).toEqual([expect.objectContaining(expected)]);
  });
});
