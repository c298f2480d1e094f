import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SessionStartingCoins } from '../../../config/compose/session-starting-coins.ts';
import { D, type MarketEvent } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aQuote, aTrade } from '../../kit/kernel-events.ts';

const ETH = 'OKX_SPOT_ETH_USDT';
const SOL = 'OKX_SPOT_SOL_USDT';
const BTC = 'BINANCE_PERP_BTC_USDT';
const INSTRUMENTS = [anInstrument(BTC), anInstrument(ETH), anInstrument(SOL)];

describe("a paper session's starting coins", () => {
  it('values each coin at the first price of its instrument the session sees, until the venue reports the account', () => {
    const coins = new SessionStartingCoins({ USDT: D(100_000), ETH: D(3), SOL: D(10) }, INSTRUMENTS, 'USDT');
    expect([coins.allPriced, coins.unpriced()]).toEqual([false, ['ETH', 'SOL']]);
    coins.observe(aTrade(1, 95_000, 1, BTC));
    // A one-sided quote gives no price.
    coins.observe({ ...aQuote(2, 3_000, 3_001, ETH), ask: 0 });
    coins.observe(aQuote(3, 3_000, 3_001, ETH));
    expect(coins.unreportedWorth().toFixed()).toBe('9001.5');
    coins.observe(aTrade(4, 3_100, 1, ETH));
    expect(coins.unreportedWorth().toFixed()).toBe('9001.5');
    expect(coins.allPriced).toBe(false);
    coins.accountReported();
    expect(coins.unreportedWorth().toFixed()).toBe('0');
    coins.observe(aTrade(5, 150, 1, SOL));
    expect([coins.allPriced, coins.unreportedWorth().toFixed()]).toEqual([true, '1500']);
    expect(coins.values.map((v) => [v.coin, v.sym, v.price.toFixed(), v.ts, v.event])).toEqual([
      ['ETH', ETH, '3000.5', 3, 2],
      ['SOL', SOL, '150', 5, 4],
    ]);
  });

  it('adds nothing when the venue valued the coins already in the account the session found', () => {
    const ahead = new SessionStartingCoins({ USDT: D(100_000), ETH: D(3) }, INSTRUMENTS, 'USDT');
    // A paper venue replaying without lockstep had seen ETH at 3400 before the session connected.
    ahead.foundAccount(D(110_200), D(100_000));
    ahead.observe(aTrade(1, 3_401, 1, ETH));
    expect([ahead.allPriced, ahead.unreportedWorth().toFixed(), ahead.values]).toEqual([true, '0', []]);
    const before = new SessionStartingCoins({ USDT: D(100_000), ETH: D(3) }, INSTRUMENTS, 'USDT');
    // In lockstep it had released no price: its equity is the cash alone.
    before.foundAccount(D(100_000), D(100_000));
    before.observe(aTrade(1, 3_401, 1, ETH));
    expect(before.unreportedWorth().toFixed()).toBe('10203');
  });

  it('has nothing to value with cash alone', () => {
    const coins = new SessionStartingCoins({ USDT: D(100_000) }, INSTRUMENTS, 'USDT');
    expect([coins.allPriced, coins.unreportedWorth().toFixed(), coins.values]).toEqual([true, '0', []]);
  });

  it('adds exactly the coins priced since the last account report, at their first price (any order of events)', () => {
    const step = fc.oneof(
      fc.record({ sym: fc.constantFrom(ETH, SOL, BTC), price: fc.integer({ min: 1, max: 10_000 }) }),
      fc.constant('report' as const),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const coins = new SessionStartingCoins({ USDT: D(1_000), ETH: D(2), SOL: D(5) }, INSTRUMENTS, 'USDT');
        const qty: Record<string, number> = { [ETH]: 2, [SOL]: 5 };
        const first = new Map<string, number>();
        let unreported = 0;
        steps.forEach((s, i) => {
          if (s === 'report') {
            coins.accountReported();
            unreported = 0;
            return;
          }
          const event: MarketEvent = aTrade(i, s.price, 1, s.sym);
          coins.observe(event);
          const held = qty[s.sym];
          if (held !== undefined && !first.has(s.sym)) {
            first.set(s.sym, s.price);
            unreported += held * s.price;
          }
        });
        return coins.unreportedWorth().eq(unreported) && coins.allPriced === (first.size === 2);
      }),
    );
  });
});
