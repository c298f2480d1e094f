import { describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../../backtest/paper-venue/index.ts';
import { D } from '../../../../core/model/index.ts';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../../kit/paper-venue-builders.ts';
import { type PaperEndpoint, type PlainReply, signedRest } from '../../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const opened = closedAfterEachTest();

const MAIN = 'PAPER-MAIN';
const SUB_A = 'PAPER-SUB-A';
const SUB_B = 'PAPER-SUB-B';

/** The main portfolio and two sub-portfolios, each with its own key and a 1 bps markup on the subs. */
async function mainAndTwoSubs(): Promise<{ v: PaperVenue; keys: Record<string, PaperEndpoint> }> {
  const ids = [MAIN, SUB_A, SUB_B];
  const v = await aPaperVenue({
    portfolios: ids.map((portfolioId) => ({
      portfolioId,
      apiKey: `${portfolioId}-key`,
      apiSecret: `${portfolioId}-secret`,
      startingBalances: { USDT: D(10_000) },
      ...(portfolioId === MAIN ? {} : { feeMarkup: D('0.0001') }),
    })),
  });
  opened.venue = v;
  await withFirstQuotes(v);
  const keys = Object.fromEntries(
    ids.map((id) => [id, { restUrl: v.restUrl, apiKey: `${id}-key`, apiSecret: `${id}-secret` }]),
  );
  return { v, keys };
}

/** A market buy on the portfolio, so it has an order, a fill, a position and a collection record. */
async function aFill(endpoint: PaperEndpoint, ref: string): Promise<void> {
  const buy = { sym: BTC, side: 'BUY', orderType: 'MARKET', orderQty: '1', clientOrderId: ref };
  expect((await signedRest(endpoint, 'POST', '/api/v1/trading/order', buy)).body.code).toBe(0);
}

const key = (keys: Record<string, PaperEndpoint>, id: string): PaperEndpoint => keys[id] as PaperEndpoint;

/** The three reads that name a portfolio: a sub's fee rate, fee rates of listed portfolios, collection records. */
function readsOf(endpoint: PaperEndpoint, id: string): Promise<PlainReply>[] {
  return [
    signedRest(endpoint, 'GET', '/api/v1/broker/subFeeRate', { subPortfolioId: id }),
    signedRest(endpoint, 'GET', '/api/v1/broker/feeRate', { portfolioIds: [id], syms: [BTC] }),
    signedRest(endpoint, 'GET', '/api/v1/broker/collectionRecord', { subPortfolioId: id }),
  ];
}

describe('paper venue reads that name a portfolio', () => {
  it('refuses a sub-portfolio’s key a sibling’s fee rate and collection records with 2003', async () => {
    const { keys } = await mainAndTwoSubs();
    await aFill(key(keys, SUB_B), 'b-fill');
    const replies = await Promise.all(readsOf(key(keys, SUB_A), SUB_B));
    expect(replies.map((r) => [r.body.code, r.body.data])).toEqual([
      [2003, null],
      [2003, null],
      [2003, null],
    ]);
    expect(replies[0]?.body.message).toContain(`${SUB_B} is not this API key's portfolio`);
  });

  it('refuses a sub-portfolio’s key a fee-rate list that names a sibling beside itself', async () => {
    const { keys } = await mainAndTwoSubs();
    const reply = await signedRest(key(keys, SUB_A), 'GET', '/api/v1/broker/feeRate', {
      portfolioIds: [SUB_A, SUB_B],
      syms: [BTC],
    });
    expect(reply.body.code).toBe(2003);
  });

  it('lists a sub-portfolio’s key only its own collection records when it names no sub-portfolio', async () => {
    const { keys } = await mainAndTwoSubs();
    await aFill(key(keys, SUB_A), 'a-fill');
    await aFill(key(keys, SUB_B), 'b-fill');
    const own = await signedRest(key(keys, SUB_A), 'GET', '/api/v1/broker/collectionRecord');
    expect(
      (own.body.data as { list: { subPortfolioId: string }[] }).list.map((r) => r.subPortfolioId),
    ).toEqual([SUB_A]);
    const all = await signedRest(key(keys, MAIN), 'GET', '/api/v1/broker/collectionRecord');
    expect(
      (all.body.data as { list: { subPortfolioId: string }[] }).list.map((r) => r.subPortfolioId).sort(),
    ).toEqual([SUB_A, SUB_B]);
  });

  it('lets the main key read each sub-portfolio, and a sub-portfolio’s key read itself', async () => {
    const { keys } = await mainAndTwoSubs();
    await aFill(key(keys, SUB_A), 'a-fill');
    await aFill(key(keys, SUB_B), 'b-fill');
    const reads = [
      ...readsOf(key(keys, MAIN), SUB_A),
      ...readsOf(key(keys, MAIN), SUB_B),
      ...readsOf(key(keys, SUB_A), SUB_A),
    ];
    const replies = await Promise.all(reads);
    expect(replies.map((r) => r.body.code)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(replies[6]?.body.data).toMatchObject({ portfolioId: SUB_A });
    expect(replies[8]?.body.data).toMatchObject({ totalSize: 1 });
  });

  it('answers a sub-portfolio’s key its own orders, positions, account and balances, never a sibling’s', async () => {
    const { keys } = await mainAndTwoSubs();
    await aFill(key(keys, SUB_B), 'b-fill');
    const a = key(keys, SUB_A);
    // These endpoints take no portfolio id: a portfolioId sent along does not pick another portfolio.
    const asking = { portfolioId: SUB_B };
    const orders = await signedRest(a, 'GET', '/api/v1/trading/history/orders', asking);
    expect((orders.body.data as { totalSize: number }).totalSize).toBe(0);
    const positions = await signedRest(a, 'GET', '/api/v1/trading/position', { ...asking, ignoreZero: true });
    expect(positions.body.data).toEqual([]);
    const fills = await signedRest(a, 'GET', '/api/v1/trading/executions', asking);
    expect(fills.body.data).toEqual([]);
    const account = await signedRest(a, 'GET', '/api/v1/trading/account', asking);
    expect(account.body.data).toMatchObject({ portfolioId: SUB_A, equity: '10000' });
    const balances = await signedRest(a, 'GET', '/api/v1/asset/getAccountCurrencyInfo', asking);
    expect(balances.body.data).toEqual([{ coin: 'USDT', withdrawAvailable: '10000' }]);
  });
});
