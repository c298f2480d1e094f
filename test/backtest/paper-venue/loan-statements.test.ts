import { describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';

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
