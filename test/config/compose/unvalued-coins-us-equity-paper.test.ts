import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SYNTHETIC_AAPL, SYNTHETIC_BTC_PERP } from '../../../backtest/synthetic/index.ts';
import { unvaluedCoinsAtStartWarnings } from '../../../config/compose/unvalued-coins-at-start.ts';
import { D } from '../../../core/model/index.ts';

function asset(coin: string, amount: string) {
  const value = D(amount);
  return { coin, balance: value, available: value, frozen: D(0), equity: value, borrow: D(0), upnl: D(0) };
}

function holding(...assets: ReturnType<typeof asset>[]) {
  return { assets: new Map(assets.map((a) => [a.coin, a])), account: undefined };
}

// The commit reviewer's run: a paper run of a US-equity config with the default paper.startingCash
// ({USDT: 100000}, which keel validate accepts) starts its paper venue with 100000 USDT, its whole
// capital, counted one for one with the USD the equity settles in. The start warning called that
// capital a coin "no instrument values" and told the user to start `keel venue --balance` without
// it: a paper run has no keel venue, and removing it leaves 0.
describe('unvalued coins at the start of a default paper run of a US equity', () => {
  it('does not call the paper account currency unvalued', () => {
    expect(unvaluedCoinsAtStartWarnings(holding(asset('USDT', '100000')), [SYNTHETIC_AAPL], 'paper')).toEqual(
      [],
    );
  });

  it('takes the first USDT, USDC or USD held as the capital of an account holding none of the settle assets', () => {
    const oneForOne = fc.constantFrom('USDT', 'USDC', 'USD');
    fc.assert(
      fc.property(
        oneForOne,
        oneForOne,
        fc.constantFrom<'live' | 'paper'>('live', 'paper'),
        (cash, settle, mode) => {
          const instrument = { ...SYNTHETIC_AAPL, settleAsset: settle };
          const only = holding(asset(cash, '100000'));
          expect(unvaluedCoinsAtStartWarnings(only, [instrument], mode)).toEqual([]);
          // Capital beside the settle asset's is counted twice: said whichever coin it is.
          const beside = holding(asset(settle, '100000'), asset(cash, '5'));
          expect(unvaluedCoinsAtStartWarnings(beside, [instrument], mode)).toHaveLength(
            cash === settle ? 0 : 1,
          );
        },
      ),
    );
  });

  it('names a coin beside that capital, or one no valuation coin stands for, with advice that fits the mode', () => {
    const twoCash = holding(asset('USDT', '100000'), asset('USDC', '50'));
    const [paper] = unvaluedCoinsAtStartWarnings(twoCash, [SYNTHETIC_AAPL], 'paper');
    expect(paper).toMatch(/^the venue's account holds 50 USDC, which no instrument of the config settles in/);
    expect(paper).toMatch(/; for a comparison with a backtest, give paper\.startingCash in USD instead$/);
    const [live] = unvaluedCoinsAtStartWarnings(holding(asset('BNB', '10')), [SYNTHETIC_BTC_PERP], 'live');
    expect(live).toMatch(/^the venue's account holds 10 BNB, which no instrument/);
    expect(live).toMatch(
      /; on a real venue that is so \(the whole account is collateral\); against keel venue, for a comparison with a backtest, start one whose --balance leaves it out \(on a new --data-dir: a data dir keeps its balances\)$/,
    );
  });
});
