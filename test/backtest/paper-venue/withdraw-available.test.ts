import { describe, expect, it } from 'vitest';
import { listFeed } from '../../../backtest/paper-venue/index.ts';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aPaperVenue, closedAfterEachTest, T0 } from '../../kit/paper-venue-builders.ts';
import { bboPush, signedRest } from '../../kit/paper-venue-client.ts';

const opened = closedAfterEachTest();
const BTC = 'BINANCE_PERP_BTC_USDT';

function markPush(markPrice: string, ts: number) {
  return { recvTs: ts, msg: { arg: { channel: 'MARK_PRICE', sym: BTC }, data: { markPrice, ts } } };
}

async function withdrawable(coin: string): Promise<string | undefined> {
  const venue = opened.venue;
  if (!venue) throw new Error('no venue');
  const rows = (await signedRest(venue, 'GET', '/api/v1/asset/getAccountCurrencyInfo')).body.data as {
    coin: string;
    withdrawAvailable: string;
  }[];
  return rows.find((r) => r.coin === coin)?.withdrawAvailable;
}

describe('withdrawAvailable (GET /api/v1/asset/getAccountCurrencyInfo)', () => {
  it('leaves out borrowed coins and keeps the LTV within maxBorrowLtv', async () => {
    opened.venue = await aPaperVenue({ startingBalances: { USDT: D(1000) } });
    const borrowed = await signedRest(opened.venue, 'POST', '/api/v1/trading/marginLoan/loan/borrow', {
      exchange: 'BINANCE',
      coin: 'USDT',
      amount: '400',
    });
    expect(borrowed.body.code).toBe(0);
    // Balance 1400, 400 of it borrowed: own free 1000; equity 1000, free margin 1000 - 400 x 0.05 =
    // 980; LTV 400 / (equity left + 400) <= 0.5 lets 1000 + 400 - 400 / 0.5 = 600 leave.
    expect(await withdrawable('USDT')).toBe('600');
  });

  it('counts an unrealized loss and the margin in use: never more than the available margin', async () => {
    opened.venue = await aPaperVenue({
      instruments: [
        anInstrument(BTC, { fees: { maker: D(0), taker: D(0), markup: D(0), fixedPerFill: D(0) } }),
      ],
      startingBalances: { USDT: D(1000) },
      feed: listFeed([bboPush(BTC, '99.9', '100.0', T0), markPush('100', T0 + 1), markPush('85', T0 + 1000)]),
    });
    const venue = opened.venue;
    venue.feed.step(2);
    await venue.feed.until(2);
    const buy = await signedRest(venue, 'POST', '/api/v1/trading/order', {
      sym: BTC,
      side: 'BUY',
      orderType: 'LIMIT',
      orderQty: '5',
      limitPrice: '100.0',
    });
    expect(buy.body.code).toBe(0);
    venue.feed.step(1);
    await venue.feed.until(3);
    // Long 5 @ 100 at leverage 10, mark 85: equity 1000 - 75 = 925, initial margin 5 x 85 / 10 =
    // 42.5, available margin 882.5; the balance's free part (1000 - 42.5 = 957.5) is more.
    const account = await signedRest(venue, 'GET', '/api/v1/trading/account');
    expect(account.body.data).toMatchObject({ equity: '925', availableMargin: '882.5' });
    expect(await withdrawable('USDT')).toBe('882.5');
  });

  it('is the whole free balance of an account without positions or loans', async () => {
    opened.venue = await aPaperVenue({ startingBalances: { USDT: D(1000) } });
    expect(await withdrawable('USDT')).toBe('1000');
  });
});
