import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYNTHETIC_BTC_PERP, SYNTHETIC_ETH_SPOT } from '../../../backtest/synthetic/index.ts';
import { unvaluedCoinsAtStartWarnings } from '../../../config/compose/unvalued-coins-at-start.ts';
import { D } from '../../../core/model/index.ts';
import { liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';

const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');

function asset(coin: string, amount: string) {
  const value = D(amount);
  return { coin, balance: value, available: value, frozen: D(0), equity: value, borrow: D(0), upnl: D(0) };
}

function stateWith(assets: ReturnType<typeof asset>[], equity?: string) {
  return {
    assets: new Map(assets.map((a) => [a.coin, a])),
    account:
      equity === undefined
        ? undefined
        : {
            portfolioId: 'main',
            equity: D(equity),
            availableMargin: D(equity),
            maintainMargin: D(0),
            riskRatio: D(0),
            accountStatus: 'NORMAL' as const,
            positionMode: 'NET' as const,
          },
  };
}

describe('coins on the venue that no instrument of the session values', () => {
  it('are named with the equity that counts them; settle assets and traded base coins are not', () => {
    const state = stateWith(
      [asset('USDT', '100000'), asset('USD', '100000'), asset('ETH', '2'), asset('EUR', '0')],
      '206800',
    );
    expect(unvaluedCoinsAtStartWarnings(state, [SYNTHETIC_BTC_PERP, SYNTHETIC_ETH_SPOT], 'live')).toEqual([
      "the venue's account holds 100000 USD, which no instrument of the config settles in or trades: the equity the venue reports (206800) counts it at the venue's own valuation (a Keel paper venue counts USDT, USDC and USD one for one), and so does the session, in USDT: its fraction-of-equity order sizes, equity risk limits and return treat it as capital; on a real venue that is so (the whole account is collateral); against keel venue, for a comparison with a backtest, start one whose --balance leaves it out (on a new --data-dir: a data dir keeps its balances)",
    ]);
    expect(
      unvaluedCoinsAtStartWarnings(
        stateWith([asset('USDT', '5'), asset('BTC', '1')]),
        [SYNTHETIC_BTC_PERP],
        'live',
      ),
    ).toEqual([]);
  });
});

// The reviewer's parity run: `keel venue` held 100000 USD beside 100000 USDT, and a live session of
// BINANCE_PERP_BTC_USDT took the 200000 of equity as its capital without a word.
describe('a live session on a venue whose account holds a coin none of its instruments values', () => {
  const newRig = liveSessionRigs({
    portfolios: [
      {
        portfolioId: 'main',
        apiKey: 'k',
        apiSecret: 's',
        startingBalances: { USDT: D(100_000), USD: D(100_000) },
      },
    ],
  });

  it('says so in its result warnings, with the equity it starts from', async () => {
    const rig = await newRig();
    const outcome = await rig.run({
      strategies: `  - { id: s, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${SESSION_SYM}, qty: 0.001 } }`,
      durationSec: 1,
    });
    expect(outcome.startEquity.toFixed()).toBe('200000');
    expect(outcome.result.meta.warnings ?? []).toContainEqual(
      expect.stringMatching(
        /^the venue's account holds 100000 USD, which no instrument of the config settles in or trades: the equity the venue reports \(200000\) counts it/,
      ),
    );
  }, 30_000);
});
