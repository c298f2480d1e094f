import { describe, expect, it } from 'vitest';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../../kit/paper-venue-builders.ts';
import { signedRest } from '../../../kit/paper-venue-client.ts';

const opened = closedAfterEachTest();

describe('execution filters', () => {
  it.each([
    ['exchange', 'NYSE'],
    ['businessType', 'FUTURES'],
  ])(
    'refuses %s %s, a value outside the spec’s, with 400001 as algo cancelAll does',
    async (field, value) => {
      opened.venue = await aPaperVenue();
      const venue = await withFirstQuotes(opened.venue);
      for (const path of [
        '/api/v1/trading/executions',
        '/api/v1/trading/executions/pageable',
        '/api/v1/trading/archive/executions/pageable',
      ]) {
        const reply = await signedRest(venue, 'GET', path, { [field]: value });
        expect(reply.body).toMatchObject({ code: 400001, message: expect.stringContaining(field) });
      }
    },
  );

  it('takes the spec’s values and lists the executions they match', async () => {
    opened.venue = await aPaperVenue();
    const venue = await withFirstQuotes(opened.venue);
    const body = { sym: 'BINANCE_PERP_BTC_USDT', side: 'BUY', orderType: 'MARKET', orderQty: '0.1' };
    expect((await signedRest(venue, 'POST', '/api/v1/trading/order', body)).body.code).toBe(0);
    const list = async (query: Record<string, string>) =>
      ((await signedRest(venue, 'GET', '/api/v1/trading/executions', query)).body.data as unknown[]).length;
    expect(await list({ exchange: 'BINANCE', businessType: 'PERP' })).toBe(1);
    expect(await list({ exchange: 'OKX' })).toBe(0);
    expect(await list({ businessType: 'SPOT' })).toBe(0);
  });
});
