import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type LoanOptions,
  type LoanPrincipal,
  loanHeadroom,
  maxLoanable,
} from '../../../backtest/sim/index.ts';
import { D } from '../../../core/model/index.ts';
import { aSim } from '../../kit/sim-builders.ts';

const TERMS = { annualRate: D('0.08'), userQuota: D('1000'), pool: D('600') };
const LOANS: LoanOptions = { assets: { 'BINANCE:USDT': TERMS, 'OKX:USDT': TERMS } };
const borrow = (ref: string, amount: string, exchange = 'BINANCE') => ({
  kind: 'borrow' as const,
  ref,
  exchange,
  coin: 'USDT',
  amount: D(amount),
});

describe('sim venue: the loan quota and pool over the venue’s loans', () => {
  it('counts the loans venueLoans gives (another portfolio’s) against the quota and the pool', () => {
    const other: LoanPrincipal[] = [{ exchange: 'BINANCE', coin: 'USDT', principal: D('500') }];
    let own: () => LoanPrincipal[] = () => [];
    const shared = aSim({ loans: LOANS, venueLoans: () => [...other, ...own()] });
    own = () => shared.sim.loans();
    // The shared sim sees the other portfolio's 500 on BINANCE: pool 600 leaves 100.
    shared.send(borrow('pool', '101'), borrow('ok', '100'), borrow('quota', '401', 'OKX'));
    shared.sim.advanceTo(1);
    expect(shared.of('commandRejected').map((e) => [e.ref, e.code, e.message])).toEqual([
      ['pool', 406018, expect.stringContaining('pool 600 USDT, 100 left')],
      ['quota', 406017, expect.stringContaining('quota 1000 USDT, 400 left')],
    ]);
    // Without venueLoans a sim counts its own loans only, as a backtest's does.
    const t = aSim({ loans: LOANS });
    t.send(borrow('alone', '600'));
    t.sim.advanceTo(1);
    expect(t.of('commandRejected')).toEqual([]);
  });

  it('allows a borrow exactly when it is within what maxLoanable says', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            exchange: fc.constantFrom('BINANCE', 'OKX'),
            coin: fc.constantFrom('USDT', 'USDC'),
            principal: fc.integer({ min: 0, max: 800 }),
          }),
          { maxLength: 4 },
        ),
        fc.integer({ min: 1, max: 1200 }),
        (held, amount) => {
          const loans = held.map((l) => ({ ...l, principal: D(l.principal) }));
          const t = aSim({ loans: LOANS, startingBalances: { USDT: D('1000000') }, venueLoans: () => loans });
          t.send(borrow('b', String(amount)));
          t.sim.advanceTo(1);
          const refused = t.of('commandRejected').map((e) => e.code);
          const max = maxLoanable(loanHeadroom(TERMS, loans, 'BINANCE', 'USDT'));
          expect(refused).toEqual(D(amount).lte(max) ? [] : [expect.toBeOneOf([406017, 406018])]);
        },
      ),
      { numRuns: 100 },
    );
  });
});
