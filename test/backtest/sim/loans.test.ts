import { describe, expect, it } from 'vitest';
import type { LoanOptions } from '../../../backtest/sim/index.ts';
import { D } from '../../../core/model/index.ts';
import { anEthSpot, anInstrument } from '../../kit/instrument-builders.ts';
import { aMark, aMarket, aQuote, aSim, aTrade } from '../../kit/sim-builders.ts';

const HOUR = 3_600_000;
const LOANS: LoanOptions = {
  assets: {
    'BINANCE:USDT': { annualRate: D('0.0876'), userQuota: D('5000'), pool: D('3000') },
  },
  maxBorrowLtv: D('0.5'),
  maintenanceMarginRate: D('0.05'),
};

function borrow(ref: string, amount: string, coin = 'USDT', exchange = 'BINANCE') {
  return { kind: 'borrow' as const, ref, exchange, coin, amount: D(amount) };
}
function repay(ref: string, amount: string, coin = 'USDT', exchange = 'BINANCE') {
  return { kind: 'repay' as const, ref, exchange, coin, amount: D(amount) };
}

describe('sim venue: margin loans', () => {
  it('borrows into the balance and accrues interest every whole hour of virtual time', () => {
    const t = aSim({ loans: LOANS });
    t.send(borrow('b1', '1000'));
    t.sim.advanceTo(1);
    expect(t.of('loan').at(-1)?.loan.principal.toFixed()).toBe('1000');
    expect(t.of('asset').at(-1)?.asset).toMatchObject({ coin: 'USDT' });
    expect(t.of('asset').at(-1)?.asset.balance.toFixed()).toBe('11000');
    expect(t.of('asset').at(-1)?.asset.loan?.toFixed()).toBe('1000');
    // LTV = 1000 / (10000 equity + 1000 loan)
    expect(t.sim.loanRisk().ltv.toFixed(6)).toBe(D(1000).div(11000).toFixed(6));
    expect(t.sim.loanRisk().netMarginValue.toFixed()).toBe('10000');
    // 1000 x 8.76 % / 8760 = 0.01 per hour; 3.5 hours -> 3 whole hours charged
    t.sim.onMarket(aTrade(3.5 * HOUR, 100, 1, 'BUY'));
    expect(t.sim.ledger().interest.toFixed()).toBe('0.03');
    expect(t.of('loan').at(-1)?.loan.interest.toFixed()).toBe('0.03');
    // Charged at each whole hour as it passes, not in one lump when the next event comes.
    expect(t.sim.statement().map((f) => `${f.type} ${f.ts / HOUR}h ${f.amount.toFixed()}`)).toEqual([
      'BORROW 0h 1000',
      'DEDUCT_INTEREST 1h -0.01',
      'DEDUCT_INTEREST 2h -0.01',
      'DEDUCT_INTEREST 3h -0.01',
    ]);
    t.sim.advanceTo(4 * HOUR);
    expect(t.sim.ledger().interest.toFixed()).toBe('0.04');
    t.send(repay('r1', '1000'));
    t.sim.advanceTo(6 * HOUR);
    expect(t.of('asset').at(-1)?.asset.balance.toFixed()).toBe('9999.96');
    expect(t.of('asset').at(-1)?.asset.loan).toBeUndefined();
    expect(t.sim.ledger().interest.toFixed()).toBe('0.04');
    expect(t.sim.statement().at(-1)).toMatchObject({ type: 'REPAY', coin: 'USDT', ts: 4 * HOUR });
    expect(t.sim.statement().at(-1)?.amount.toFixed()).toBe('-1000');
  });

  it('tells the interest of the hour under way that no charge has taken yet, and none on an hour boundary', () => {
    const t = aSim({ loans: LOANS });
    t.send(borrow('b1', '1000'));
    t.sim.advanceTo(1);
    expect(t.sim.startedHourInterest().map((o) => `${o.coin} ${o.amount.toFixed()}`)).toEqual(['USDT 0.01']);
    t.sim.advanceTo(HOUR);
    expect(t.sim.startedHourInterest()).toEqual([]);
    t.sim.advanceTo(1.5 * HOUR);
    expect(t.sim.startedHourInterest().map((o) => o.amount.toFixed())).toEqual(['0.01']);
    t.send(repay('r1', '1000'));
    t.sim.advanceTo(1.6 * HOUR);
    expect(t.sim.startedHourInterest()).toEqual([]);
  });

  it('rounds each hourly charge up to 8 decimal places, so the charges add up to the interest exactly', () => {
    const t = aSim({
      loans: {
        ...LOANS,
        assets: { 'BINANCE:USDT': { annualRate: D('0.1'), userQuota: D('5000'), pool: D('3000') } },
      },
    });
    t.send(borrow('b1', '1000'));
    t.sim.advanceTo(1);
    // 1000 x 10 % / 8760 = 0.011415525114155251141... per hour
    t.sim.advanceTo(3 * HOUR + 1);
    const charges = t.sim.statement().filter((f) => f.type === 'DEDUCT_INTEREST');
    expect(charges.map((f) => f.amount.toFixed())).toEqual(['-0.01141553', '-0.01141553', '-0.01141553']);
    expect(t.sim.ledger().interest.toFixed()).toBe('0.03424659');
    expect(t.of('loan').at(-1)?.loan.interest.toFixed()).toBe('0.03424659');
  });

  it('answers each loan error with its code (406014–406023, as the live adapter reads them)', () => {
    const t = aSim({
      loans: {
        ...LOANS,
        assets: {
          ...LOANS.assets,
          'OKX:USDT': { annualRate: D('0.1'), userQuota: D('100000'), pool: D('100000') },
        },
      },
      startingBalances: { USDT: D('1000') },
    });
    t.send(
      borrow('not-borrowable', '10', 'DOGE'),
      borrow('zero', '0'),
      borrow('quota', '5001'),
      borrow('pool', '3001'),
      borrow('ltv', '1001', 'USDT', 'OKX'),
      repay('nothing', '1'),
      borrow('ok', '500'),
      // 880 / (1000 + 880) = 0.468: under the 0.5 limit, over the 0.45 warning level
      borrow('more', '380'),
      borrow('warn', '1'),
      repay('too-much', '881'),
    );
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([
      ['not-borrowable', 406014],
      ['zero', 406015],
      ['quota', 406017],
      ['pool', 406018],
      ['ltv', 406019],
      ['nothing', 406022],
      ['warn', 406020],
      ['too-much', 406022],
    ]);
    // 880 / 1880 = 0.46809
    expect(t.of('commandRejected').find((e) => e.ref === 'warn')?.message).toContain(
      ': LTV 0.4681 is at or above the warning level 0.45 (ltvWarningLevel)',
    );
  });

  it('says which loan option gives loan terms when its caller names none (406014) and what LTV a refused borrow would leave (406019)', () => {
    const t = aSim({ startingBalances: { USDT: D('1000') } });
    const u = aSim({ loans: LOANS, startingBalances: { USDT: D('1000') } });
    t.send(borrow('none', '10'));
    t.sim.advanceTo(1);
    // 1001 / (1000 + 1001) = 0.50025 > 0.5
    u.send(borrow('ltv', '1001'));
    u.sim.advanceTo(1);
    expect(t.of('commandRejected')[0]?.message).toBe(
      `406014 the asset cannot be borrowed on this exchange: this simulated venue has no loan terms for BINANCE:USDT; give them in the venue's loan options (loans.assets), e.g. "BINANCE:USDT": { annualRate: 0.08, userQuota: 50000 }`,
    );
    expect(u.of('commandRejected')[0]?.message).toBe(
      '406019 the loan-to-value ratio after borrowing would exceed the limit: the borrow would leave LTV 0.5002 (loan value 1001.00 / (equity 1000.00 + loan value 1001.00)), above the limit 0.5 (maxBorrowLtv)',
    );
  });

  it('refuses an amount that is not positive (406015) before asking whether the asset can be borrowed (406014)', () => {
    const t = aSim({ startingBalances: { USDT: D('1000') } });
    t.send(borrow('negative', '-1'), borrow('zero', '0', 'DOGE'), borrow('unknown', '1', 'DOGE'));
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([
      ['negative', 406015],
      ['zero', 406015],
      ['unknown', 406014],
    ]);
  });

  it("refuses a borrow below the asset's minimum and an amount finer than 8 decimal places (406015)", () => {
    const t = aSim({
      loans: {
        ...LOANS,
        assets: {
          ...LOANS.assets,
          'OKX:USDT': { annualRate: D('0.1'), userQuota: D('1000'), pool: D('1000'), minBorrow: D('10') },
        },
      },
    });
    t.send(
      borrow('tiny', '0.0000000001'),
      borrow('finest', '0.00000001'),
      borrow('below', '9.99', 'USDT', 'OKX'),
      borrow('at', '10', 'USDT', 'OKX'),
      repay('fine', '0.000000001'),
      repay('ok', '0.00000001'),
    );
    t.sim.advanceTo(1);
    const refused = t.of('commandRejected');
    expect(refused.map((e) => [e.ref, e.code])).toEqual([
      ['tiny', 406015],
      ['below', 406015],
      ['fine', 406015],
    ]);
    expect(refused[0]?.message).toContain('0.0000000001 is finer than 8 decimal places');
    expect(refused[1]?.message).toContain('the minimum borrow of OKX:USDT is 10');
    expect(refused[2]?.message).toContain('0.000000001 is finer than 8 decimal places');
    expect(t.sim.loans().map((l) => `${l.exchange}:${l.coin} ${l.principal.toFixed()}`)).toEqual([
      'OKX:USDT 10',
    ]);
  });

  it('says where the loan terms are given, as the caller names it (406014)', () => {
    const t = aSim({
      loans: { assets: {}, missingTermsAdvice: (key) => `start keel venue with --loans naming ${key}` },
    });
    t.send(borrow('none', '10'));
    t.sim.advanceTo(1);
    expect(t.of('commandRejected')[0]?.message).toBe(
      '406014 the asset cannot be borrowed on this exchange: this simulated venue has no loan terms for BINANCE:USDT; start keel venue with --loans naming BINANCE:USDT',
    );
  });

  it('refuses a borrow the available margin cannot carry (406016) and a repay the balance cannot pay (406023)', () => {
    const t = aSim({ loans: { ...LOANS, maxBorrowLtv: D('0.99') }, startingBalances: { USDT: D('100') } });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    // 9 x 100 / 10 = 90 of initial margin leaves 100 - 0.45 - 90 = 9.55 available
    t.send(aMarket('m', 'BUY', '9'), borrow('big', '200'));
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([['big', 406016]]);
    const u = aSim({ loans: LOANS, startingBalances: { USDT: D('1000') } });
    u.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    u.send(borrow('b', '100'), aMarket('m', 'BUY', '10'));
    u.sim.onMarket(aQuote(1, 89.9, 100, 90, 100));
    u.send(aMarket('x', 'SELL', '10'), repay('r', '100'));
    u.sim.advanceTo(2);
    // 1000 + 100 - 0.5 - 0.4495 - 101 = 998.05 >= 100: the repay works
    expect(u.of('commandRejected')).toEqual([]);
  });

  it('freezes new loans while the account is in margin call (406020)', () => {
    const t = aSim({ loans: LOANS, startingBalances: { USDT: D('200') } });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.send(aMarket('m', 'BUY', '10'));
    // mark 80.5: equity 199.5 - 195 = 4.5, MM 4.025, risk ratio 0.894 >= 0.8: MARGIN_CALL, not liquidated
    t.sim.onMarket(aMark(1, 80.5));
    t.send(borrow('b', '10'));
    t.sim.advanceTo(2);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([['b', 406020]]);
    expect(t.of('liquidationEvent')).toHaveLength(0);
  });

  it('counts the loans already taken against the margin a new loan needs, so a split borrow is refused too (406016)', () => {
    const loose = { ...LOANS, maxBorrowLtv: D('0.99'), ltvWarningLevel: D('0.99') };
    const split = aSim({ loans: loose, startingBalances: { USDT: D('100') } });
    split.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    // 9.1 available (fee 0.45, the mid 99.95 marks the long) carries one loan of 150 (maintenance 7.5), not two
    split.send(aMarket('m', 'BUY', '9'), borrow('first', '150'), borrow('second', '150'));
    split.sim.advanceTo(1);
    expect(split.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([['second', 406016]]);
    expect(split.of('commandRejected')[0]?.message).toBe(
      '406016 not enough available margin to carry this loan: needs 7.50 of margin; available margin less the 7.50 the loans already taken need is 1.64',
    );
    expect(split.sim.loanRisk().totalLoanValue.toFixed()).toBe('150');
  });

  it('refuses to lend a coin with no price yet (406019), whose value no check could weigh', () => {
    const t = aSim({
      instruments: [anInstrument(), anEthSpot()],
      loans: {
        ...LOANS,
        assets: { 'OKX:ETH': { annualRate: D('0.0876'), userQuota: D('500'), pool: D('500') } },
      },
      startingBalances: { USDT: D('1000') },
    });
    t.send(borrow('blind', '100', 'ETH', 'OKX'));
    t.sim.advanceTo(1);
    t.sim.onMarket(aQuote(2, 99.9, 100, 100, 100, 'OKX_SPOT_ETH_USDT'));
    // 100 ETH at 99.95 against 1000 USDT of equity: LTV 0.91
    t.send(borrow('priced', '100', 'ETH', 'OKX'), borrow('small', '1', 'ETH', 'OKX'));
    t.sim.advanceTo(3);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([
      ['blind', 406019],
      ['priced', 406019],
    ]);
    expect(t.of('commandRejected')[0]?.message).toBe(
      "406019 the loan-to-value ratio after borrowing would exceed the limit: ETH has no price yet, so the loan's value and the LTV after it are unknown; borrow it once a ETH/USDT or USDC or USD instrument has a price",
    );
    expect(t.of('loan').at(-1)?.loan.principal.toFixed()).toBe('1');
  });
});
