import { describe, expect, it } from 'vitest';
import { listFeed, type PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { D } from '../../../core/model/index.ts';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { bboPush, signedRest } from '../../kit/paper-venue-client.ts';

const LOAN = '/api/v1/trading/marginLoan/loan';
const opened = closedAfterEachTest();

/** A venue where USDT 100 was borrowed, 50 repaid, then 30 borrowed again on BINANCE. */
async function afterBorrowRepayBorrow(): Promise<PaperVenue> {
  opened.venue = await aPaperVenue();
  const venue = await withFirstQuotes(opened.venue);
  for (const [path, amount] of [
    ['borrow', '100'],
    ['repay', '50'],
    ['borrow', '30'],
  ] as const) {
    const reply = await signedRest(venue, 'POST', `${LOAN}/${path}`, {
      exchange: 'BINANCE',
      coin: 'USDT',
      amount,
    });
    expect(reply.body.code).toBe(0);
  }
  return venue;
}

describe('paper venue statements after borrows and repays', () => {
  it('lists each borrow and repay once in the margin-loan statement, in time order', async () => {
    const venue = await afterBorrowRepayBorrow();
    const statement = await signedRest(venue, 'GET', `${LOAN}/statement`);
    expect((statement.body.data as { totalSize: number }).totalSize).toBe(3);
    expect(
      (statement.body.data as { list: { type: string; amount: string; exchange?: string }[] }).list.map((r) =>
        [r.type, r.amount, r.exchange].join(' '),
      ),
    ).toEqual(['BORROW 100 BINANCE', 'REPAY 50 BINANCE', 'BORROW 30 BINANCE']);
  });

  it('gives each trading-statement loan row the borrowed amount just before and after it', async () => {
    const venue = await afterBorrowRepayBorrow();
    const statement = await signedRest(venue, 'GET', '/api/v1/trading/statement');
    expect(
      (
        statement.body.data as {
          list: { type: string; deltaAmount: string; beforeBorrow: string; afterBorrow: string }[];
        }
      ).list.map((r) => `${r.type} ${r.beforeBorrow} ${r.deltaAmount} -> ${r.afterBorrow}`),
    ).toEqual(['BORROW 0 100 -> 100', 'REPAY 100 -50 -> 50', 'BORROW 50 30 -> 80']);
  });
});

describe('the paper venue’s margin-loan statement after a liquidation repaid the loan', () => {
  it('lists the REPAY the liquidation made, as the sim books it (a session reads repays from here)', async () => {
    const T0 = Date.UTC(2026, 0, 1);
    opened.venue = await aPaperVenue({
      startingBalances: { USDT: D(10_000) },
      feed: listFeed([
        bboPush('BINANCE_PERP_BTC_USDT', '100.0', '100.1', T0),
        bboPush('BINANCE_PERP_BTC_USDT', '0.5', '0.6', T0 + 1000),
      ]),
    });
    const v = opened.venue;
    v.feed.step(1);
    await v.feed.until(1);
    const borrow = await signedRest(v, 'POST', `${LOAN}/borrow`, {
      exchange: 'BINANCE',
      coin: 'USDT',
      amount: '2000',
    });
    expect(borrow.body.code).toBe(0);
    const buy = await signedRest(v, 'POST', '/api/v1/trading/order', {
      sym: 'BINANCE_PERP_BTC_USDT',
      side: 'BUY',
      orderType: 'MARKET',
      orderQty: '100',
    });
    expect(buy.body.code).toBe(0);
    // The price falls 99.5 %: the portfolio is liquidated; the liquidation repays the loan from
    // the USDT balance (its first step, sim README "Loans"), which covers it.
    v.feed.step(1);
    await v.feed.until(2);
    const info = (await signedRest(v, 'GET', `${LOAN}/info`)).body.data as { loans: unknown[] };
    expect(info.loans).toEqual([]);
    const statement = (await signedRest(v, 'GET', `${LOAN}/statement`)).body.data as {
      list: { type: string; amount: string; exchange?: string }[];
    };
    expect(
      statement.list
        .filter((r) => r.type === 'BORROW' || r.type === 'REPAY')
        .map((r) => [r.type, r.amount, r.exchange].join(' ')),
    ).toEqual(['REPAY 2000 BINANCE', 'BORROW 2000 BINANCE']); // newest first
  });
});
