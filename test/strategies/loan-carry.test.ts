import { describe, expect, it } from 'vitest';
import { D } from '../../core/model/index.ts';
import { loanCarry } from '../../strategies/index.ts';
import { asApproved } from '../kit/sim-builders.ts';
import { aStrategyRig, type StrategyRigOptions } from '../kit/strategy-rig.ts';

/** Hold the venue's LTV (loan / (equity + loan)) at 30 % of 10 000 USDT equity, +-5 %, checked every second. */
const base = { exchange: 'BINANCE', coin: 'USDT', targetLtv: 0.3, band: 0.05, checkEveryMs: 1000 };

function loansOf(pool: string): StrategyRigOptions['sim'] {
  return {
    loans: { assets: { 'BINANCE:USDT': { annualRate: D('0.08'), userQuota: D('100000'), pool: D(pool) } } },
  };
}

function aLoanCarry(options: StrategyRigOptions = {}, pool = '100000') {
  return aStrategyRig([{ id: 'lc', strategy: loanCarry, params: base }], { sim: loansOf(pool), ...options });
}

function requests(rig: Awaited<ReturnType<typeof aLoanCarry>>): string[] {
  return rig.sent.flatMap((i) =>
    i.kind === 'borrow' || i.kind === 'repay' ? [`${i.kind} ${i.amount.toFixed()}`] : [],
  );
}

describe('loan-carry strategy', () => {
  it('borrows up to the target LTV when the LTV is below the band, then holds', async () => {
    const rig = await aLoanCarry();
    rig.advance(999);
    expect(rig.sent).toEqual([]);
    rig.advance(1000); // LTV 0 < 0.25: borrow 0.3 x 10 000 / 0.7 = 4285.714285714..., floored
    expect(requests(rig)).toEqual(['borrow 4285.71428571']);
    expect(rig.eventsOf('loan').at(-1)?.loan.principal.toFixed()).toBe('4285.71428571');
    // the venue's LTV is the strategy's: 4285.71428571 / 14285.71428571 = 0.3
    expect(rig.sim.loanRisk().ltv.toFixed(6)).toBe('0.300000');
    rig.advance(2000); // LTV 0.3: inside the band
    rig.advance(3000);
    expect(requests(rig)).toEqual(['borrow 4285.71428571']);
    expect(rig.denials).toEqual([]);
  });

  it('repays down to the target LTV when the LTV is above the band', async () => {
    const rig = await aLoanCarry();
    rig.sim.submit(
      asApproved({ kind: 'borrow', ref: 'seed', exchange: 'BINANCE', coin: 'USDT', amount: D(7000) }),
    );
    rig.advance(10); // a loan taken outside the strategy: LTV 7000 / 17 000 = 0.41
    rig.advance(1000);
    // down to 4285.714285714...: repay 2714.285714285..., floored
    expect(requests(rig)).toEqual(['repay 2714.28571428']);
    expect(rig.eventsOf('loan').at(-1)?.loan.principal.toFixed()).toBe('4285.71428572');
    rig.advance(2000);
    expect(requests(rig)).toHaveLength(1);
  });

  it('keeps one request in flight: no second borrow while the first is unanswered', async () => {
    const rig = await aLoanCarry({ latencyMs: 1500 });
    rig.advance(1000); // borrow arrives at 2500
    rig.advance(2000);
    expect(requests(rig)).toEqual(['borrow 4285.71428571']);
    rig.advance(3000); // the loan is there: LTV on target
    rig.advance(4000);
    expect(requests(rig)).toEqual(['borrow 4285.71428571']);
    expect(rig.eventsOf('loan').at(-1)?.loan.principal.toFixed()).toBe('4285.71428571');
  });

  it('hears a venue refusal as a denial and asks again at the next check', async () => {
    const rig = await aLoanCarry({}, '1000'); // the pool cannot lend 4285.71
    rig.advance(1000);
    expect(rig.denials.map((d) => `${d.source} ${d.check}`)).toEqual(['venue venue.406018']); // pool exceeded
    rig.advance(2000);
    expect(requests(rig)).toEqual(['borrow 4285.71428571', 'borrow 4285.71428571']);
  });

  it('rejects nonsense parameters', () => {
    const parse = (p: object) => loanCarry.params.safeParse({ ...base, ...p }).success;
    expect(parse({})).toBe(true);
    expect(parse({ targetLtv: 0 })).toBe(false);
    expect(parse({ targetLtv: 0.95 })).toBe(false);
    expect(parse({ band: 0.3 })).toBe(false); // targetLtv - band must stay above 0
    expect(parse({ minAmount: 0 })).toBe(false);
    expect(parse({ checkEveryMs: 0 })).toBe(false);
    expect(parse({ coin: '' })).toBe(false);
    expect(parse({ ltv: 0.3 })).toBe(false);
  });
});
