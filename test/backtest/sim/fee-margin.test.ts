import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aBar, aLimit, aMarket, aQuote, aSim, BTC, type SimUnderTest } from '../../kit/sim-builders.ts';

/**
 * BTC paying taker 8 bps + 1 bp instrument markup (+ 1 bp sub-portfolio markup in the sims below)
 * = 10 bps, and 1 USDT per order, as an equity broker would charge.
 */
const TEN_BPS_AND_ONE = anInstrument(BTC, {
  maxMarketSize: D('1000'),
  fees: { maker: D(0), taker: D('0.0008'), markup: D('0.0001'), fixedPerFill: D(0), fixedPerOrder: D(1) },
});

/** 10 000 USDT at leverage 1 on BTC paying 10 bps + 1 per order. */
function aCashAccount(more: Parameters<typeof aSim>[0] = {}): SimUnderTest {
  return aSim({
    instruments: [TEN_BPS_AND_ONE],
    subPortfolioMarkup: D('0.0001'),
    leverage: { [BTC]: D(1) },
    ...more,
  });
}

/** A one-price market at time ts: bid = ask = price, 1000 on each side. */
const at = (ts: number, price: number) => aQuote(ts, price, 1000, price, 1000);

function fates(t: SimUnderTest): [string, string, string][] {
  return t
    .of('order')
    .map(({ order }): [string, string, string] => [order.clientOrderId, order.orderState, order.reason ?? ''])
    .filter(([, state]) => state === 'REJECTED' || state === 'FILLED');
}

const usdt = async (t: SimUnderTest) =>
  (await t.sim.snapshot()).assets.find((a) => a.coin === 'USDT')?.balance.toFixed();

describe('sim venue: the margin check counts the fee of the opening part', () => {
  it('refuses BUY 90 @111 on 10 000 at leverage 1 (9 990 + fee 10.99) and fills BUY 89, so cash never goes negative', async () => {
    const t = aCashAccount();
    t.sim.onMarket(at(0, 111));
    // 90: 9 990 + 9 990 x 0.001 + 1 = 10 000.99 > 10 000; 89: 9 879 + 9.879 + 1 = 9 889.879
    t.send(aMarket('all-in', 'BUY', '90'), aMarket('fits', 'BUY', '89'));
    t.sim.advanceTo(1);
    expect(fates(t)).toEqual([
      [
        'all-in',
        'REJECTED',
        '401023 insufficient margin: needs 10000.99 (margin 9990.00 + fee 10.99), available 10000.00',
      ],
      ['fits', 'FILLED', ''],
    ]);
    // 10 000 - 10.879 fee; LONG 89 @111 locks 9 879 of it
    expect(await usdt(t)).toBe('9989.121');
    expect((await t.sim.snapshot()).account?.availableMargin.toFixed()).toBe('110.121');
  });

  it('counts the taker fee for a resting limit when it is placed', () => {
    const t = aCashAccount();
    t.sim.onMarket(aQuote(0, 110.5, 1000, 111.5, 1000));
    t.send(aLimit('rests', 'BUY', '90', '111'));
    t.sim.advanceTo(1);
    expect(fates(t)).toEqual([
      [
        'rests',
        'REJECTED',
        '401023 insufficient margin: needs 10000.99 (margin 9990.00 + fee 10.99), available 10000.00',
      ],
    ]);
  });

  it('counts it at the open a market order on bars fills at', async () => {
    const t = aCashAccount({ fillModel: 'bar' });
    t.sim.onMarket(aBar(60_000, 110, 110, 110, 110));
    // at the close 110: 9 900 + 9.9 + 1 = 9 910.9 fits; at the next open 111 it is 10 000.99
    t.send(aMarket('all-in', 'BUY', '90'));
    t.sim.onMarket(aBar(120_000, 111, 111, 111, 111));
    expect(fates(t)).toEqual([
      [
        'all-in',
        'REJECTED',
        '401023 insufficient margin: needs 10000.99 (margin 9990.00 + fee 10.99) at 111 (the price of BINANCE_PERP_BTC_USDT when it came to fill), available 10000.00',
      ],
    ]);
    expect(await usdt(t)).toBe('10000');
  });

  it("charges a reversal only its opening part's fee (the sma-cross case: SHORT 50 @95, price 99)", async () => {
    const t = aCashAccount({ subPortfolioMarkup: D(0) });
    t.sim.onMarket(at(0, 95));
    t.send(aMarket('short', 'SELL', '50'));
    t.sim.advanceTo(1);
    // 9 bps here (no sub-portfolio markup): the short pays 4 750 x 0.0009 + 1 = 5.275
    t.sim.onMarket(at(2, 99));
    // balance 10 000 - 5.275 = 9 994.725; equity 9 794.725; the short locks 4 950: available 4 844.725
    // (shown 4844.72, rounded half to even)
    // BUY 148.93 leaves LONG 98.93: 98.93 x 99 = 9 794.07, 4 844.07 over the 4 950 freed, + fee
    // 9 794.07 x 0.0009 + 1 = 9.814663: 4 853.884663 > 4 844.725 (without the fee it would fit)
    // BUY 99 leaves LONG 49: 4 851 < 4 950 freed, + fee 4 851 x 0.0009 + 1 = 5.3659 fits
    t.send(aMarket('too-big', 'BUY', '148.93'), aMarket('flip', 'BUY', '99'));
    t.sim.advanceTo(3);
    expect(fates(t)).toEqual([
      ['short', 'FILLED', ''],
      [
        'too-big',
        'REJECTED',
        '401023 insufficient margin: needs 4853.88 (margin 4844.07 + fee 9.81), available 4844.72',
      ],
      ['flip', 'FILLED', ''],
    ]);
    // the flip's fill pays 99 x 99 x 0.0009 + 1 = 9.8209 on its whole quantity; loss 50 x 4 = 200
    expect(await usdt(t)).toBe('9784.9041');
  });
});
