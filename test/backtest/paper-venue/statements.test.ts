import { describe, expect, it } from 'vitest';
import { listFeed } from '../../../backtest/paper-venue/index.ts';
import { aPaperVenue, closedAfterEachTest, T0 } from '../../kit/paper-venue-builders.ts';
import { bboPush, signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const HOUR = 3_600_000;
const opened = closedAfterEachTest();

/** A MARK_PRICE push of BTC: `fundingRate` is settled at `nextFundingTime`. */
function markPush(ts: number, markPrice: string, fundingRate: string, nextFundingTime: number) {
  return {
    recvTs: ts,
    msg: { arg: { channel: 'MARK_PRICE', sym: BTC }, data: { markPrice, ts, fundingRate, nextFundingTime } },
  };
}

type Row = { id?: string; type: string; coin: string; amount: string; sym?: string; createAt: number };

async function list(path: string): Promise<Row[]> {
  const venue = opened.venue;
  if (venue === undefined) throw new Error('the test started no venue');
  const reply = await signedRest(venue, 'GET', path, { pageSize: 100 });
  expect(reply.body.code).toBe(0);
  return (reply.body.data as { list: Row[] }).list;
}

describe('paper venue statements', () => {
  it('settles funding on a held perpetual as the sim does, and lists it on the statement under an id', async () => {
    const funding = T0 + 8 * HOUR;
    opened.venue = await aPaperVenue({
      feed: listFeed([
        bboPush(BTC, '100.0', '100.1', T0),
        markPush(T0 + 1000, '100', '0.0001', funding),
        markPush(funding - 1000, '101', '0.0002', funding),
        markPush(funding + 1000, '101', '0.0001', funding + 8 * HOUR),
        bboPush(BTC, '100.0', '100.1', funding + 2000),
      ]),
    });
    const venue = opened.venue;
    venue.feed.step(2);
    await venue.feed.until(2);
    const order = await signedRest(venue, 'POST', '/api/v1/trading/order', {
      sym: BTC,
      side: 'BUY',
      orderType: 'MARKET',
      orderQty: '2',
      clientOrderId: 'long',
    });
    expect(order.body.code).toBe(0);
    venue.feed.step(3);
    await venue.feed.until(5);
    // Long 2 at the 08:00 funding, last mark 101, rate 0.02 %: pays 2 x 101 x 0.0002 = 0.0404.
    const rows = await list('/api/v1/trading/statement');
    expect(
      rows.map(({ id, type, coin, amount, sym, createAt }) => ({ id, type, coin, amount, sym, createAt })),
    ).toEqual([
      { id: 'S-1', type: 'FUNDING_FEE', coin: 'USDT', amount: '-0.0404', sym: BTC, createAt: funding },
    ]);
  });

  it('lists each borrow and repay once on the loan statement, and the interest charged after an hour, each under its own id', async () => {
    opened.venue = await aPaperVenue({
      feed: listFeed([bboPush(BTC, '100.0', '100.1', T0), bboPush(BTC, '100.0', '100.1', T0 + HOUR + 1000)]),
    });
    const venue = opened.venue;
    venue.feed.step(1);
    await venue.feed.until(1);
    const borrow = await signedRest(venue, 'POST', '/api/v1/trading/marginLoan/loan/borrow', {
      exchange: 'BINANCE',
      coin: 'USDT',
      amount: '8760',
    });
    expect(borrow.body.code).toBe(0);
    venue.feed.step(1);
    await venue.feed.until(2);
    const repay = await signedRest(venue, 'POST', '/api/v1/trading/marginLoan/loan/repay', {
      exchange: 'BINANCE',
      coin: 'USDT',
      amount: '876',
    });
    expect(repay.body.code).toBe(0);
    // 8760 USDT at 8 % a year for one hour: 8760 x 0.08 / 8760 = 0.08; the 876 repaid in the second
    // hour pay it: 876 x 0.08 / 8760 = 0.008.
    const rows = await list('/api/v1/trading/marginLoan/loan/statement');
    expect(rows.map((r) => `${r.type} ${r.amount}`).sort()).toEqual([
      'BORROW 8760',
      'DEDUCT_INTEREST -0.008',
      'DEDUCT_INTEREST -0.08',
      'REPAY 876',
    ]);
    const ids = rows.map((r) => r.id);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(4);
    const trading = await list('/api/v1/trading/statement');
    const interestIds = (list: typeof rows) =>
      list
        .filter((r) => r.type === 'DEDUCT_INTEREST')
        .map((r) => r.id)
        .sort();
    expect(interestIds(trading)).toEqual(interestIds(rows));
    expect(interestIds(rows)).toHaveLength(2);
  });
});
