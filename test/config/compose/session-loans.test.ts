import { describe, expect, it } from 'vitest';
import { unreadLoansAtEndWarnings } from '../../../config/compose/session-loans.ts';
import { D, type Loan, ZERO } from '../../../core/model/index.ts';

const loan = (coin: string, principal: string): Loan => ({
  exchange: 'BINANCE',
  coin,
  principal: D(principal),
  interest: ZERO,
  annualRate: D('0.08'),
  updateAt: 0,
});

describe('a session whose loans could not be read at its end', () => {
  it('warns that the loans it says are owed are its own view, naming them', () => {
    expect(unreadLoansAtEndWarnings([loan('USDT', '224.31'), loan('ETH', '0')])).toEqual([
      "The venue's margin loans could not be read at the end: the loans said to be owed at the end (224.31 USDT on BINANCE) are Keel's last view of them, which misses any repay the venue made itself (a liquidation's).",
    ]);
  });

  it('says nothing when it holds no loan (an account without margin loans may be refused the read)', () => {
    expect(unreadLoansAtEndWarnings([loan('USDT', '0')])).toEqual([]);
    expect(unreadLoansAtEndWarnings([])).toEqual([]);
  });
});
