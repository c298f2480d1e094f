import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { ENDPOINTS, type EndpointName } from '../../../core/venue/index.ts';
import {
  aMainAndSubVenue,
  aPaperVenue,
  closedAfterEachTest,
  withFirstQuotes,
} from '../../kit/paper-venue-builders.ts';
import { loggedIn, type PlainReply, signedRest } from '../../kit/paper-venue-client.ts';

// decimal.js isPositive() is true for zero: these replies must treat zero as "none".
const opened = closedAfterEachTest();

async function call(name: EndpointName, params: Record<string, unknown> = {}): Promise<PlainReply['body']> {
  const venue = opened.venue;
  if (!venue) throw new Error('the test started no venue');
  const { method, path } = ENDPOINTS[name];
  const reply = await signedRest(venue, method, path, params);
  if (reply.body.code !== 0) throw new Error(`${name} failed: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

async function twoPortfolios() {
  const { venue: v, main, sub } = await aMainAndSubVenue({ usdt: 10_000, feeMarkup: D('0') });
  opened.venue = v;
  await withFirstQuotes(v);
  return { main, sub, v };
}

describe('paper venue replies with zero amounts', () => {
  it('leaves an order with nothing executed out of the history filtered by filterExecuted', async () => {
    opened.venue = await aPaperVenue();
    await withFirstQuotes(opened.venue);
    await call('placeOrder', {
      sym: 'BINANCE_PERP_BTC_USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      orderQty: '1',
      limitPrice: '50.0',
      clientOrderId: 'resting',
    });
    const all = (await call('getOrderHistory')).data as { totalSize: number };
    const executed = (await call('getOrderHistory', { filterExecuted: true })).data as { totalSize: number };
    expect(all.totalSize).toBe(1);
    expect(executed.totalSize).toBe(0);
  });

  it('lists no loan once it is repaid in full', async () => {
    opened.venue = await aPaperVenue();
    await withFirstQuotes(opened.venue);
    await call('marginBorrow', { exchange: 'BINANCE', coin: 'USDT', amount: '100' });
    const borrowed = (await call('getMarginLoanInfo')).data as { loans: unknown[]; totalLoanValue: string };
    expect(borrowed.loans).toHaveLength(1);
    await call('marginRepay', { exchange: 'BINANCE', coin: 'USDT', amount: '100' });
    const repaid = (await call('getMarginLoanInfo')).data as { loans: unknown[]; totalLoanValue: string };
    expect(repaid.loans).toEqual([]);
    expect(repaid.totalLoanValue).toBe('0');
  });

  it('records no collection for a sub-portfolio whose markup is zero', async () => {
    const { main, sub, v } = await twoPortfolios();
    const subSocket = await loggedIn(v.privateWsUrl, sub);
    opened.sockets.push(subSocket);
    const order = {
      sym: 'BINANCE_PERP_BTC_USDT',
      side: 'BUY',
      orderType: 'MARKET',
      orderQty: '2',
      clientOrderId: 'sub-mkt',
    };
    expect((await signedRest(sub, 'POST', '/api/v1/trading/order', order)).body.code).toBe(0);
    await subSocket.waitFor((f) => f?.channel === 'Trades');
    const records = await signedRest(main, 'GET', '/api/v1/broker/collectionRecord', {
      subPortfolioId: 'PAPER-SUB',
    });
    expect(records.body.data).toMatchObject({ totalSize: 0, list: [] });
  });

  it('takes a markup of "-0" bps as zero, not as a negative markup', async () => {
    const { main } = await twoPortfolios();
    const reply = await signedRest(main, 'POST', ENDPOINTS.setSubFeeRate.path, {
      subPortfolioId: 'PAPER-SUB',
      markup: '-0',
    });
    expect(reply.body).toMatchObject({ code: 0, data: { markup: '0' } });
  });
});
