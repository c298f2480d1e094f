import { describe, expect, it } from 'vitest';
import type { LoanOptions } from '../../../backtest/sim/index.ts';
import { type BarEvent, D } from '../../../core/model/index.ts';
import { aFeedBar } from '../../kit/kernel-events.ts';
import { aSim } from '../../kit/sim-builders.ts';

const HOUR = 3_600_000;
/** 1000 USDT at 8.76 % a year: 0.01 an hour. */
const LOANS: LoanOptions = {
  assets: { 'BINANCE:USDT': { annualRate: D('0.0876'), userQuota: D('5000'), pool: D('3000') } },
};

function borrow(ref: string, amount: string) {
  return { kind: 'borrow' as const, ref, exchange: 'BINANCE', coin: 'USDT', amount: D(amount) };
}
function repay(ref: string, amount: string) {
  return { kind: 'repay' as const, ref, exchange: 'BINANCE', coin: 'USDT', amount: D(amount) };
}

describe('sim venue: loan interest charges every hour started', () => {
  it('charges a loan borrowed and repaid within the hour for that hour, when it is repaid', () => {
    const t = aSim({ loans: LOANS });
    t.send(borrow('b', '1000'));
    t.sim.advanceTo(1);
    t.sim.advanceTo(HOUR - 1000);
    t.send(repay('r', '1000'));
    t.sim.advanceTo(2 * HOUR);
    expect(t.sim.ledger().interest.toFixed()).toBe('0.01');
    expect(t.sim.statement().map((f) => `${f.type} ${f.amount.toFixed()} ${f.ts}`)).toEqual([
      'BORROW 1000 0',
      `DEDUCT_INTEREST -0.01 ${HOUR - 1000}`,
      `REPAY -1000 ${HOUR - 1000}`,
    ]);
    expect(t.of('loan').at(-1)?.loan).toMatchObject({ interest: D('0.01') });
  });

  it('charges what a partial repay takes out for the hour under way, and the rest at the hour end', () => {
    const t = aSim({ loans: LOANS });
    t.send(borrow('b', '1000'));
    t.sim.advanceTo(HOUR + 60_000);
    t.send(repay('r', '400'));
    t.sim.advanceTo(3 * HOUR);
    // hour 1 on 1000; hour 2 on the 400 repaid in it, at the repay, and on the 600 left, at its end;
    // hour 3 on 600
    expect(t.sim.statement().map((f) => `${f.type} ${f.amount.toFixed()} ${f.ts / 60_000}m`)).toEqual([
      'BORROW 1000 0m',
      'DEDUCT_INTEREST -0.01 60m',
      'DEDUCT_INTEREST -0.004 61m',
      'REPAY -400 61m',
      'DEDUCT_INTEREST -0.006 120m',
      'DEDUCT_INTEREST -0.006 180m',
    ]);
  });

  it('charges a loan repaid exactly at an hour end for its whole hours only', () => {
    const t = aSim({ loans: LOANS });
    t.send(borrow('b', '1000'));
    t.sim.advanceTo(2 * HOUR);
    t.send(repay('r', '1000'));
    t.sim.advanceTo(4 * HOUR);
    expect(t.sim.ledger().interest.toFixed()).toBe('0.02');
  });

  it('charges a borrow on an open loan the whole hour it is added in', () => {
    const t = aSim({ loans: LOANS });
    t.send(borrow('b1', '1000'));
    t.sim.advanceTo(HOUR - 60_000);
    t.send(borrow('b2', '1000'));
    t.sim.advanceTo(HOUR);
    expect(t.sim.ledger().interest.toFixed()).toBe('0.02');
  });

  it('charges each hour of a daily bar on its own, rounded and stamped at the hour end', () => {
    const t = aSim({
      fillModel: 'bar',
      loans: { assets: { 'BINANCE:USDT': { annualRate: D('0.1'), userQuota: D('5000'), pool: D('3000') } } },
    });
    t.send(borrow('b', '1000'));
    t.sim.onMarket(aDailyBtcBar(0));
    // 1000 x 10 % / 8760 = 0.0114155251..., rounded up each hour
    const hours = Array.from({ length: 24 }, (_, i) => `DEDUCT_INTEREST -0.01141553 ${(i + 1) * HOUR}`);
    expect(t.sim.statement().map((f) => `${f.type} ${f.amount.toFixed()} ${f.ts}`)).toEqual([
      'BORROW 1000 0',
      ...hours,
    ]);
    expect(t.sim.ledger().interest.toFixed()).toBe('0.27397272');
  });

  it('checks the margin after each hour of a daily bar, so the hour that breaches it ends the loan', () => {
    // 100 USDT, 100 borrowed at 24 an hour: equity 100 - 24 k against a loan maintenance of 5
    const t = aSim({
      fillModel: 'bar',
      startingBalances: { USDT: D('100') },
      loans: {
        assets: { 'BINANCE:USDT': { annualRate: D('2102.4'), userQuota: D('5000'), pool: D('3000') } },
      },
    });
    t.send(borrow('b', '100'));
    t.sim.onMarket(aDailyBtcBar(0));
    expect(t.sim.statement().map((f) => `${f.type} ${f.amount.toFixed()} ${f.ts / HOUR}h`)).toEqual([
      'BORROW 100 0h',
      'DEDUCT_INTEREST -24 1h',
      'DEDUCT_INTEREST -24 2h',
      'DEDUCT_INTEREST -24 3h',
      'DEDUCT_INTEREST -24 4h',
      // the liquidation runs when the bar's timers catch up, at its close
      'REPAY -100 24h',
    ]);
  });
});

/** A closed daily BTC bar opening at `openTime`, received at its close. */
function aDailyBtcBar(openTime: number): BarEvent {
  const close = openTime + 24 * HOUR;
  return { ...aFeedBar(openTime, [100, 101, 99, 100, 10]), ts: close, recvTs: close, interval: '1d' };
}
