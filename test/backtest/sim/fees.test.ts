import { describe, expect, it } from 'vitest';
import { checkMarkup, fillFee } from '../../../backtest/sim/fee-model.ts';
import { D, type FeeSchedule } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimit, aMarket, aQuote, aSim, aTrade, type SimUnderTest } from '../../kit/sim-builders.ts';

const schedule = { maker: D('0.0002'), taker: D('0.0005'), markup: D('0'), fixedPerFill: D('0') };

const AAPL = 'US_EQUITY_AAPL';
/** 10:30 New York on a Monday: inside the regular session, where an equity order may fill. */
const IN_SESSION = Date.parse('2026-03-09T14:30:00Z');

/**
 * A sim on one US equity settled in USD (tick 0.01, whole shares) with the given fee schedule,
 * holding 10 000 USD.
 */
function anEquitySim(fees: FeeSchedule): SimUnderTest {
  return aSim({
    instruments: [
      anInstrument(AAPL, { tickSize: D('0.01'), lotSize: D('1'), minSize: D('1'), settleAsset: 'USD', fees }),
    ],
    startingBalances: { USD: D('10000') },
  });
}

describe('sim venue: fees', () => {
  it('charges maker or taker rate plus the instrument markup plus the sub-portfolio markup, each once', () => {
    // (5 bps + instrument 0.5 bps + sub-portfolio 0.01 bps) x 1000 = 0.551
    const marked = { ...schedule, markup: D('0.00005') };
    expect(fillFee(marked, 'TAKER', D('1000'), D('0.000001'), true).fee.toFixed()).toBe('0.551');
  });

  it('charges maker or taker rate plus the sub-portfolio markup on notional', () => {
    expect(fillFee(schedule, 'MAKER', D('1000'), D('0'), true).fee.toFixed()).toBe('0.2');
    // (5 bps + 0.37 bps markup) x 1000 = 0.537
    expect(fillFee(schedule, 'TAKER', D('1000'), D('0.000037'), true).fee.toFixed()).toBe('0.537');
  });

  it('sums the rate again when the sub-portfolio markup changes, on the same schedule', () => {
    const fees = [D('0.000037'), D('0'), D('0.000037')].map((markup) =>
      fillFee(schedule, 'TAKER', D('1000'), markup, true).fee.toFixed(),
    );
    expect(fees).toEqual(['0.537', '0.5', '0.537']);
    expect(fillFee(schedule, 'MAKER', D('1000'), D('0'), true).fee.toFixed()).toBe('0.2');
  });

  it('pays a negative maker rate back as a rebate', () => {
    const rebate = fillFee({ ...schedule, maker: D('-0.0001') }, 'MAKER', D('1000'), D('0'), true);
    expect([rebate.fee.toFixed(), rebate.rebate.toFixed()]).toEqual(['0', '0.1']);
  });

  it('adds a fixed commission per fill, alone or with a rate (equities)', () => {
    const fixed = { maker: D('0'), taker: D('0'), markup: D('0'), fixedPerFill: D('1') };
    expect(fillFee(fixed, 'TAKER', D('5000'), D('0'), true).fee.toFixed()).toBe('1');
    expect(fillFee(fixed, 'TAKER', D('5000'), D('0'), false).fee.toFixed()).toBe('1');
    expect(fillFee({ ...fixed, taker: D('0.0001') }, 'TAKER', D('5000'), D('0'), true).fee.toFixed()).toBe(
      '1.5',
    );
  });

  it('adds a fixed commission per order on its first fill only', () => {
    const perOrder = {
      maker: D('0'),
      taker: D('0.0001'),
      markup: D('0'),
      fixedPerFill: D('0'),
      fixedPerOrder: D('0.35'),
    };
    // 5000 x 1 bp = 0.5, + 0.35 on the first fill
    expect(fillFee(perOrder, 'TAKER', D('5000'), D('0'), true).fee.toFixed()).toBe('0.85');
    expect(fillFee(perOrder, 'TAKER', D('5000'), D('0'), false).fee.toFixed()).toBe('0.5');
  });

  it('accepts markups to 0.01 bps and refuses finer ones', () => {
    expect(() => checkMarkup(D('0.000001'), 'x')).not.toThrow();
    expect(() => checkMarkup(D('0.0000005'), 'sim subPortfolioMarkup')).toThrow(
      /finer than the venue's precision of 0.01 bps/,
    );
    expect(() => aSim({ subPortfolioMarkup: D('0.00000001') })).toThrow(RangeError);
  });

  it('refuses a negative sub-portfolio markup at construction, as setFeeMarkup does', () => {
    expect(() => aSim({ subPortfolioMarkup: D('-0.00001') })).toThrow(
      'sim subPortfolioMarkup: markup -0.00001 must not be negative',
    );
  });

  it('charges an equity order its rate plus fixed commission in the quote asset', () => {
    const t = anEquitySim({ maker: D('0'), taker: D('0.0001'), markup: D('0'), fixedPerFill: D('0.99') });
    t.sim.onMarket(aQuote(IN_SESSION, 189.99, 500, 190, 500, AAPL));
    t.send(aMarket('m', 'BUY', '10', { sym: AAPL }));
    t.sim.advanceTo(IN_SESSION + 1);
    const fill = t.of('execution')[0]?.execution;
    // 10 x 190 = 1900 notional: 0.19 + 0.99
    expect([fill?.fee.toFixed(), fill?.feeCoin]).toEqual(['1.18', 'USD']);
    expect(t.of('asset').at(-1)?.asset.balance.toFixed()).toBe('9998.82');
  });

  it('charges the fixed commission per order once, on the first of its fills', () => {
    const fees = { maker: D('0.0001'), taker: D('0.0001'), markup: D('0'), fixedPerFill: D('0') };
    const t = anEquitySim({ ...fees, fixedPerOrder: D('1') });
    t.sim.onMarket(aQuote(IN_SESSION, 189.99, 500, 190.5, 500, AAPL));
    t.send(aLimit('b', 'BUY', '10', '190', { sym: AAPL }));
    t.sim.advanceTo(IN_SESSION + 1);
    t.sim.onMarket(aTrade(IN_SESSION + 2, 189.9, 4, 'SELL', AAPL));
    t.sim.onMarket(aTrade(IN_SESSION + 3, 189.9, 6, 'SELL', AAPL));
    const fills = t
      .of('execution')
      .map(
        (e) =>
          `${e.execution.quantity.toFixed()}@${e.execution.price.toFixed()} fee ${e.execution.fee.toFixed()}`,
      );
    // 4 x 190 = 760 x 1 bp = 0.076, + 1 per order on the first fill; 6 x 190 = 1140 x 1 bp = 0.114
    expect(fills).toEqual(['4@190 fee 1.076', '6@190 fee 0.114']);
    // 10000 - 1.076 - 0.114
    expect(t.of('asset').at(-1)?.asset.balance.toFixed()).toBe('9998.81');
  });

  it('credits a maker rebate (negative maker rate) to the balance', () => {
    const t = anEquitySim({ maker: D('-0.0001'), taker: D('0.0005'), markup: D('0'), fixedPerFill: D('0') });
    t.sim.onMarket(aQuote(IN_SESSION, 189.99, 500, 190.5, 500, AAPL));
    t.send(aLimit('b', 'BUY', '10', '190', { sym: AAPL }));
    t.sim.advanceTo(IN_SESSION + 1);
    t.sim.onMarket(aTrade(IN_SESSION + 2, 189.9, 10, 'SELL', AAPL));
    const fill = t.of('execution')[0]?.execution;
    // 10 x 190 = 1900 notional x -1 bp = -0.19: paid back as a rebate of 0.19
    expect([fill?.execType, fill?.fee.toFixed(), fill?.rebate.toFixed()]).toEqual(['MAKER', '0', '0.19']);
    expect(t.of('asset').at(-1)?.asset.balance.toFixed()).toBe('10000.19');
  });

  it('adds the sub-portfolio markup to every fill of the sim', () => {
    const t = aSim({ subPortfolioMarkup: D('0.0001') });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.send(aMarket('m', 'BUY', '1'));
    t.sim.advanceTo(1);
    // 100 x (5 + 1) bps
    expect(t.of('execution')[0]?.execution.fee.toFixed()).toBe('0.06');
  });

  it('charges a markup changed at run time on the fills after the change, not before', () => {
    const t = aSim({ subPortfolioMarkup: D('0.0001') });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.send(aMarket('m1', 'BUY', '1'));
    t.sim.advanceTo(1);
    t.sim.setFeeMarkup(D('0.000037'));
    t.send(aMarket('m2', 'BUY', '1'));
    t.sim.advanceTo(2);
    const fees = t.of('execution').map((e) => e.execution.fee.toFixed());
    // 100 x (5 + 1) bps, then 100 x (5 + 0.37) bps
    expect(fees).toEqual(['0.06', '0.0537']);
  });

  it("reports each fill's sub-portfolio markup share, at the markup of its time, for the collection records", () => {
    const t = aSim({ subPortfolioMarkup: D('0.0001') });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.send(aMarket('m1', 'BUY', '1'));
    t.sim.advanceTo(1);
    t.sim.setFeeMarkup(D('0.000037'));
    t.send(aMarket('m2', 'BUY', '1'));
    t.sim.advanceTo(2);
    t.sim.setFeeMarkup(D('0'));
    t.send(aMarket('m3', 'BUY', '1'));
    t.sim.advanceTo(3);
    // 100 x 1 bps, 100 x 0.37 bps, then no markup: none reported
    expect(t.of('execution').map((e) => e.subPortfolioMarkup?.toFixed())).toEqual([
      '0.01',
      '0.0037',
      undefined,
    ]);
  });

  it('refuses a run-time markup that is negative or finer than 0.01 bps, keeping the old one', () => {
    const t = aSim({ subPortfolioMarkup: D('0.0001') });
    expect(() => t.sim.setFeeMarkup(D('0.0000005'))).toThrow(/finer than the venue's precision of 0.01 bps/);
    expect(() => t.sim.setFeeMarkup(D('-0.0001'))).toThrow(/must not be negative/);
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.send(aMarket('m', 'BUY', '1'));
    t.sim.advanceTo(1);
    expect(t.of('execution')[0]?.execution.fee.toFixed()).toBe('0.06');
  });
});
