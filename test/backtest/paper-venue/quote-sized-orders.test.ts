import { describe, expect, it } from 'vitest';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ORDER = '/api/v1/trading/order';
const opened = closedAfterEachTest();

describe('paper venue: a market order sized by quoteOrderQty (orderQty 0)', () => {
  it('fills the lots the amount pays for, and writes quoteOrderQty with the qty it paid for', async () => {
    opened.venue = await aPaperVenue();
    const venue = await withFirstQuotes(opened.venue);
    const body = {
      sym: BTC,
      side: 'BUY',
      orderType: 'MARKET',
      orderQty: '0',
      quoteOrderQty: '50',
      clientOrderId: 'q',
    };
    expect((await signedRest(venue, 'POST', ORDER, body)).body.code).toBe(0);
    const order = (await signedRest(venue, 'GET', ORDER, { clientOrderId: 'q' })).body.data as Record<
      string,
      string
    >;
    expect([order.orderState, order.orderQty, order.quoteOrderQty, order.executedQty]).toEqual([
      'FILLED',
      order.executedQty,
      '50',
      order.executedQty,
    ]);
    expect(Number(order.executedAmount)).toBeLessThanOrEqual(50);
    expect(Number(order.executedQty)).toBeGreaterThan(0);
  });

  it('answers an amount that pays for less than one lot with a 400001 error, as the backtest refuses it', async () => {
    opened.venue = await aPaperVenue();
    const venue = await withFirstQuotes(opened.venue);
    const body = {
      sym: BTC,
      side: 'BUY',
      orderType: 'MARKET',
      orderQty: '0',
      quoteOrderQty: '0.0001',
      clientOrderId: 'q',
    };
    const refused = await signedRest(venue, 'POST', ORDER, body);
    expect(refused.body.code).toBe(400001);
    expect(refused.body.message).toMatch(/^bad parameters: quoteOrderQty 0.0001 pays for less than one lot/);
  });
});
