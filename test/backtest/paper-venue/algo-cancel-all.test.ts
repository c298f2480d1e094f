import { describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { SYNTHETIC_AAPL } from '../../../backtest/synthetic/index.ts';
import { D } from '../../../core/model/index.ts';
import { anEthSpot, anInstrument } from '../../kit/instrument-builders.ts';
import { aPaperVenue, closedAfterEachTest } from '../../kit/paper-venue-builders.ts';
import { handSignature, signedRest } from '../../kit/paper-venue-client.ts';

const CANCEL_ALL = '/api/v1/algo/cancelAll';
const opened = closedAfterEachTest();

/** Open algo orders of every kind the filters tell apart, by clientAlgoOrderId. */
const ALGOS = {
  'btc-lte': { sym: 'BINANCE_PERP_BTC_USDT', algoOrderType: 'TRIGGER', conditionType: 'LTE' },
  'btc-gte': { sym: 'BINANCE_PERP_BTC_USDT', algoOrderType: 'TRIGGER', conditionType: 'GTE' },
  'btc-stop': { sym: 'BINANCE_PERP_BTC_USDT', algoOrderType: 'TP_SL', conditionType: 'LTE' },
  'okx-perp': { sym: 'OKX_PERP_ETH_USDT', algoOrderType: 'TRIGGER', conditionType: 'LTE' },
  'okx-spot': { sym: 'OKX_SPOT_ETH_USDT', algoOrderType: 'TRIGGER', conditionType: 'LTE' },
  aapl: { sym: SYNTHETIC_AAPL.sym, algoOrderType: 'TRIGGER', conditionType: 'LTE' },
} as const;

async function withEveryKindOfAlgo(): Promise<PaperVenue> {
  const venue = await aPaperVenue({
    instruments: [
      anInstrument('BINANCE_PERP_BTC_USDT', { minNotional: D('1') }),
      anInstrument('OKX_PERP_ETH_USDT'),
      anEthSpot(),
      SYNTHETIC_AAPL,
    ],
  });
  opened.venue = venue;
  for (const [clientAlgoOrderId, algo] of Object.entries(ALGOS)) {
    const placed = await signedRest(venue, 'POST', '/api/v1/algo/order', {
      ...algo,
      clientAlgoOrderId,
      side: 'BUY',
      triggerPrice: '100',
      price: '100',
      qty: '1',
    });
    expect(placed.body).toMatchObject({ code: 0 });
  }
  return venue;
}

async function openAlgos(venue: PaperVenue): Promise<string[]> {
  const open = await signedRest(venue, 'GET', '/api/v1/algo/openOrders');
  return (open.body.data as { clientAlgoOrderId: string }[]).map((a) => a.clientAlgoOrderId).sort();
}

/** A signed DELETE with parameters in its query string, and in a JSON body when given. */
async function deleteWithQuery(
  venue: PaperVenue,
  path: string,
  query: Record<string, string>,
  body?: Record<string, string>,
) {
  const nonce = String(Math.floor(Date.now() / 1000));
  const response = await fetch(`${venue.restUrl}${path}?${new URLSearchParams(query)}`, {
    method: 'DELETE',
    headers: {
      'X-MBX-APIKEY': venue.apiKey,
      nonce,
      signature: handSignature(venue.apiSecret, { ...query, ...body }, nonce),
      'content-type': 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as { code: number; data: unknown } };
}

describe('paper venue DELETE /api/v1/algo/cancelAll', () => {
  it('cancels only the open algo orders every given filter matches, and counts those', async () => {
    const venue = await withEveryKindOfAlgo();
    const all = Object.keys(ALGOS).sort();
    expect(await openAlgos(venue)).toEqual(all);
    const cancel = async (filters: Record<string, string>) =>
      (await signedRest(venue, 'DELETE', CANCEL_ALL, filters)).body;
    expect(await cancel({ conditionType: 'GTE' })).toMatchObject({ code: 0, data: { cancelled: 1 } });
    expect(await openAlgos(venue)).not.toContain('btc-gte');
    expect(await cancel({ exchangeType: 'OKX', businessType: 'SPOT' })).toMatchObject({
      data: { cancelled: 1 },
    });
    expect(await openAlgos(venue)).toEqual(['aapl', 'btc-lte', 'btc-stop', 'okx-perp']);
    expect(await cancel({ businessType: 'PERP', algoOrderType: 'TRIGGER' })).toMatchObject({
      data: { cancelled: 2 },
    });
    expect(await openAlgos(venue)).toEqual(['aapl', 'btc-stop']);
    expect(await cancel({ exchangeType: 'BINANCE', sym: SYNTHETIC_AAPL.sym })).toMatchObject({
      data: { cancelled: 0 },
    });
    expect(await cancel({})).toMatchObject({ data: { cancelled: 2 } });
    expect(await openAlgos(venue)).toEqual([]);
  });

  it('refuses a filter value outside the spec’s with 400001 and cancels nothing', async () => {
    const venue = await withEveryKindOfAlgo();
    for (const filters of [
      { algoOrderType: 'STOP' },
      { conditionType: 'gte' },
      { exchangeType: 'NYSE' },
      { businessType: 'FUTURES' },
      { sym: 'BINANCE_PERP_BTC_USDT', algoOrderType: 'OCO' },
    ]) {
      const refused = await signedRest(venue, 'DELETE', CANCEL_ALL, filters);
      expect(refused.body).toMatchObject({ code: 400001, data: null });
      expect(refused.body.message).toContain(Object.keys(filters).at(-1));
    }
    expect(await openAlgos(venue)).toEqual(Object.keys(ALGOS).sort());
  });

  it('reads the filters from the query string as well as from the body, and refuses one given in both', async () => {
    const venue = await withEveryKindOfAlgo();
    const reply = await deleteWithQuery(venue, CANCEL_ALL, { algoOrderType: 'TP_SL' });
    expect(reply.body).toMatchObject({ code: 0, data: { cancelled: 1 } });
    expect(await openAlgos(venue)).toEqual(['aapl', 'btc-gte', 'btc-lte', 'okx-perp', 'okx-spot']);
    const refused = await deleteWithQuery(venue, CANCEL_ALL, { conditionType: 'BOTH' });
    expect(refused.body).toMatchObject({ code: 400001 });
    const twice = await deleteWithQuery(venue, CANCEL_ALL, { sym: 'OKX_PERP_ETH_USDT' }, { sym: 'x' });
    expect(twice.body).toMatchObject({ code: 400001 });
    expect(twice.body).toHaveProperty('message', expect.stringContaining('sym is given in both'));
    const both = await deleteWithQuery(
      venue,
      CANCEL_ALL,
      { exchangeType: 'OKX' },
      { algoOrderType: 'TRIGGER', businessType: 'PERP' },
    );
    expect(both.body).toMatchObject({ code: 0, data: { cancelled: 1 } });
    expect(await openAlgos(venue)).toEqual(['aapl', 'btc-gte', 'btc-lte', 'okx-spot']);
  });
});
