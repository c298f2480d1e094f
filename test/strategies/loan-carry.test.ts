import fc from 'fast-check';
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

  it('asks for half as much after the pool refuses a borrow (406018), until it has borrowed what the pool had', async () => {
    const rig = await aLoanCarry({}, '1000'); // the pool cannot lend 4285.71
    rig.advance(1000);
    expect(rig.denials.map((d) => `${d.source} ${d.check}`)).toEqual(['venue venue.406018']); // pool exceeded
    rig.advance(2000);
    rig.advance(3000);
    rig.advance(4000);
    expect(requests(rig)).toEqual([
      'borrow 4285.71428571',
      'borrow 2142.85714285', // refused: half of it next
      'borrow 1071.42857142', // refused
      'borrow 535.71428571', // within the 1000 left: borrowed
    ]);
    expect(rig.eventsOf('loan').at(-1)?.loan.principal.toFixed()).toBe('535.71428571');
    for (let t = 5000; t <= 60_000; t += 1000) rig.advance(t);
    // The rest of the pool, in halving steps, until the cap is under minAmount (1): then no more asks.
    const principal = rig.eventsOf('loan').at(-1)?.loan.principal ?? D(0);
    expect(principal.lte(1000) && principal.gt(998)).toBe(true);
    const asked = requests(rig).length;
    rig.advance(61_000);
    rig.advance(62_000);
    expect(requests(rig)).toHaveLength(asked);
  });

  it('borrows what the quota or pool leaves in few requests, never more than it leaves, whatever the pool', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6000 }), async (pool) => {
        const rig = await aLoanCarry({}, String(pool));
        for (let t = 1000; t <= 40_000; t += 1000) rig.advance(t);
        const principal = rig.eventsOf('loan').at(-1)?.loan.principal ?? D(0);
        const target = D('4285.71428571');
        // All of the target when the pool has it; else all but less than 2 x minAmount of the
        // pool, or enough to bring the LTV inside the band (0.25 x 10 000 / 0.75 = 3333.33).
        if (target.lte(pool)) expect(principal.toFixed()).toBe(target.toFixed());
        else {
          expect(principal.lte(pool)).toBe(true);
          expect(principal.gt(pool - 2) || principal.gte(D(10_000).div(3))).toBe(true);
        }
        // Each refusal halves the ask: about log2(4285 / 1) of them at most, besides the borrows.
        expect(rig.denials.length).toBeLessThanOrEqual(14);
      }),
      { numRuns: 25 },
    );
  });

  it('lifts the cap once the loan falls (a repay frees quota)', async () => {
    const rig = await aLoanCarry({}, '1000');
    for (let t = 1000; t <= 40_000; t += 1000) rig.advance(t);
    const before = rig.eventsOf('loan').at(-1)?.loan.principal ?? D(0);
    // Someone repays 500: the pool has 500 more to lend and the loan fell.
    rig.sim.submit(
      asApproved({ kind: 'repay', ref: 'out', exchange: 'BINANCE', coin: 'USDT', amount: D(500) }),
    );
    rig.advance(40_010);
    const sentBefore = requests(rig).length;
    rig.advance(41_000);
    // Uncapped again: the full amount the target needs, refused by the pool, then halving again.
    expect(requests(rig)[sentBefore]).toBe(`borrow ${D('4285.71428571').minus(before.minus(500)).toFixed()}`);
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
