import { describe, expect, it } from 'vitest';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const opened = closedAfterEachTest();
const ALGO = {
  sym: BTC,
  side: 'SELL',
  algoOrderType: 'TRIGGER',
  conditionType: 'LTE',
  triggerPrice: '99.2',
  price: '0',
  qty: '1',
};

describe('paper venue algo order triggerType', () => {
  it('refuses a triggerType other than MarkPrice or LastPrice with 400001, as tp / sl trigger types are', async () => {
    opened.venue = await aPaperVenue();
    const venue = await withFirstQuotes(opened.venue);
    const bad = await signedRest(venue, 'POST', '/api/v1/algo/order', {
      ...ALGO,
      triggerType: 'LAST_PRICE',
      clientAlgoOrderId: 'a1',
    });
    expect(bad.body).toMatchObject({ code: 400001, data: null });
    expect(bad.body.message).toContain('triggerType');
    expect(
      (await signedRest(venue, 'GET', '/api/v1/algo/order', { clientAlgoOrderId: 'a1' })).body.code,
    ).toBe(401018);
    const last = await signedRest(venue, 'POST', '/api/v1/algo/order', {
      ...ALGO,
      triggerType: 'LastPrice',
      clientAlgoOrderId: 'a2',
    });
    expect(last.body).toMatchObject({ code: 0, data: { triggerType: 'LastPrice' } });
    const unsaid = await signedRest(venue, 'POST', '/api/v1/algo/order', {
      ...ALGO,
      clientAlgoOrderId: 'a3',
    });
    expect(unsaid.body).toMatchObject({ code: 0, data: { triggerType: 'MarkPrice' } });
  });
});
