import { describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { D } from '../../../core/model/index.ts';
import { aMainAndSubVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { loggedIn, type PaperEndpoint, signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const opened = closedAfterEachTest();

async function twoPortfolios(): Promise<{ main: PaperEndpoint; sub: PaperEndpoint; v: PaperVenue }> {
  const { venue: v, main, sub } = await aMainAndSubVenue({ usdt: 10_000, feeMarkup: D('0.0001') });
  opened.venue = v;
  await withFirstQuotes(v);
  return { main, sub, v };
}

describe('paper venue sub-portfolios', () => {
  it('keeps each portfolio’s orders apart and lists both trade accounts to the main key only', async () => {
    const { main, sub } = await twoPortfolios();
    const order = {
      sym: BTC,
      side: 'BUY',
      orderType: 'LIMIT',
      orderQty: '1',
      limitPrice: '90.0',
      clientOrderId: 'sub-1',
    };
    expect((await signedRest(sub, 'POST', '/api/v1/trading/order', order)).body.code).toBe(0);
    expect((await signedRest(sub, 'GET', '/api/v1/trading/orders')).body.data).toHaveLength(1);
    expect((await signedRest(main, 'GET', '/api/v1/trading/orders')).body.data).toEqual([]);
    expect((await signedRest(main, 'GET', '/api/v1/tradeAccount/list')).body.data).toHaveLength(2);
    expect((await signedRest(sub, 'GET', '/api/v1/tradeAccount/list')).body.data).toEqual([
      expect.objectContaining({ portfolioId: 'PAPER-SUB' }),
    ]);
  });

  it('lets only the main key set a sub-portfolio markup, to a precision of 0.01 bps', async () => {
    const { main, sub } = await twoPortfolios();
    const path = '/api/v1/broker/subFeeRate';
    expect(
      (await signedRest(sub, 'POST', path, { subPortfolioId: 'PAPER-SUB', markup: '0.25' })).body.code,
    ).toBe(2003);
    expect(
      (await signedRest(main, 'POST', path, { subPortfolioId: 'PAPER-SUB', markup: '0.255' })).body.code,
    ).toBe(400001);
    expect(
      (await signedRest(main, 'POST', path, { subPortfolioId: 'PAPER-SUB', markup: '0.25' })).body.code,
    ).toBe(0);
    const rate = await signedRest(main, 'GET', path, { subPortfolioId: 'PAPER-SUB' });
    expect(rate.body.data).toMatchObject({ portfolioId: 'PAPER-SUB', markup: '0.25' });
  });

  it('answers the main rate alone without syms, every listed portfolio with syms, and refuses 21 portfolios', async () => {
    const { main } = await twoPortfolios();
    const path = '/api/v1/broker/feeRate';
    expect((await signedRest(main, 'GET', path)).body.data).toEqual([
      expect.objectContaining({ portfolioId: 'PAPER-MAIN' }),
    ]);
    const both = await signedRest(main, 'GET', path, {
      portfolioIds: ['PAPER-MAIN', 'PAPER-SUB'],
      syms: [BTC],
    });
    expect(
      (both.body.data as { portfolioId: string; groups: { syms: string[] }[] }[]).map((r) => [
        r.portfolioId,
        r.groups[0]?.syms,
      ]),
    ).toEqual([
      ['PAPER-MAIN', [BTC]],
      ['PAPER-SUB', [BTC]],
    ]);
    const many = Array.from({ length: 21 }, (_, i) => `P${i}`);
    expect((await signedRest(main, 'GET', path, { portfolioIds: many, syms: [BTC] })).body.code).toBe(400001);
  });

  it('records the markup collected on a sub-portfolio fill, and does not push the sub’s orders on the main connection', async () => {
    const { main, sub, v } = await twoPortfolios();
    const mainSocket = await loggedIn(v.privateWsUrl, main);
    const subSocket = await loggedIn(v.privateWsUrl, sub);
    opened.sockets.push(mainSocket, subSocket);
    const order = { sym: BTC, side: 'BUY', orderType: 'MARKET', orderQty: '2', clientOrderId: 'sub-mkt' };
    expect((await signedRest(sub, 'POST', '/api/v1/trading/order', order)).body.code).toBe(0);
    await subSocket.waitFor((f) => f?.channel === 'Trades');
    const records = await signedRest(main, 'GET', '/api/v1/broker/collectionRecord', {
      subPortfolioId: 'PAPER-SUB',
    });
    expect(records.body.data).toMatchObject({
      totalSize: 1,
      list: [{ sym: BTC, feePrice: '100.1', fee: '0.02002' }],
    });
    expect(mainSocket.frames.some((f) => f.includes('"Orders"'))).toBe(false);
  });

  it('charges a markup set over REST on the next fill, and collects each fill at the markup of its time', async () => {
    const { main, sub } = await twoPortfolios();
    const buy = (ref: string) => ({
      sym: BTC,
      side: 'BUY',
      orderType: 'MARKET',
      orderQty: '2',
      clientOrderId: ref,
    });
    expect((await signedRest(sub, 'POST', '/api/v1/trading/order', buy('before'))).body.code).toBe(0);
    const set = { subPortfolioId: 'PAPER-SUB', markup: '0.25' };
    expect((await signedRest(main, 'POST', '/api/v1/broker/subFeeRate', set)).body.code).toBe(0);
    expect((await signedRest(sub, 'POST', '/api/v1/trading/order', buy('after'))).body.code).toBe(0);
    const fills = (await signedRest(sub, 'GET', '/api/v1/trading/executions', { sym: BTC })).body.data as {
      clientOrderId: string;
      fee: string;
    }[];
    // 2 x 100.1 = 200.2 notional: taker 5 bps + markup 1 bps = 0.12012, then 5 + 0.25 bps = 0.105105.
    expect(Object.fromEntries(fills.map((f) => [f.clientOrderId, f.fee]))).toEqual({
      before: '0.12012',
      after: '0.105105',
    });
    const records = await signedRest(main, 'GET', '/api/v1/broker/collectionRecord', {
      subPortfolioId: 'PAPER-SUB',
    });
    // The markup alone: 200.2 x 1 bps, then 200.2 x 0.25 bps.
    expect((records.body.data as { list: { fee: string }[] }).list.map((r) => r.fee).sort()).toEqual([
      '0.005005',
      '0.02002',
    ]);
  });
});
