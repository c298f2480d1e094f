import { describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const opened = closedAfterEachTest();

/** A BOTH-mode portfolio holding LONG 1 and SHORT 2 BTC. */
async function hedged(): Promise<PaperVenue> {
  opened.venue = await aPaperVenue();
  const venue = await withFirstQuotes(opened.venue);
  expect(
    (await signedRest(venue, 'POST', '/api/v1/trading/account', { positionMode: 'BOTH' })).body.code,
  ).toBe(0);
  for (const [side, orderQty, positionSide] of [
    ['BUY', '1', 'LONG'],
    ['SELL', '2', 'SHORT'],
  ]) {
    const body = { sym: BTC, side, orderType: 'MARKET', orderQty, positionSide };
    expect((await signedRest(venue, 'POST', '/api/v1/trading/order', body)).body.code).toBe(0);
  }
  return venue;
}

async function sides(venue: PaperVenue): Promise<string[]> {
  const reply = await signedRest(venue, 'GET', '/api/v1/trading/position', { ignoreZero: true });
  const data = reply.body.data as { positionSide: string; positionQty: string }[];
  return data.map((p) => `${p.positionSide} ${p.positionQty}`);
}

describe('closing a position in BOTH mode', () => {
  it('refuses DELETE /trading/position naming no positionSide, or NONE (400001: it names no one position), and closes nothing', async () => {
    const venue = await hedged();
    expect(await sides(venue)).toEqual(['LONG 1', 'SHORT -2']);
    for (const params of [{ sym: BTC }, { sym: BTC, positionSide: 'NONE' }]) {
      const refused = await signedRest(venue, 'DELETE', '/api/v1/trading/position', params);
      expect(refused.body).toMatchObject({
        code: 400001,
        message: expect.stringContaining('positionSide LONG or SHORT is required in BOTH mode'),
      });
    }
    expect(await sides(venue)).toEqual(['LONG 1', 'SHORT -2']);
  });

  it('closes both legs of the sym with DELETE /trading/positions', async () => {
    const venue = await hedged();
    const closed = await signedRest(venue, 'DELETE', '/api/v1/trading/positions', { symList: [BTC] });
    expect(closed.body.code).toBe(0);
    expect(await sides(venue)).toEqual([]);
  });

  it('closes only the named leg when positionSide is given', async () => {
    const venue = await hedged();
    const closed = await signedRest(venue, 'DELETE', '/api/v1/trading/position', {
      sym: BTC,
      positionSide: 'SHORT',
    });
    expect(closed.body.code).toBe(0);
    expect(await sides(venue)).toEqual(['LONG 1']);
  });
});
