import { describe, expect, it } from 'vitest';
import { SimVenueError } from '../../../backtest/sim/index.ts';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aMark, aMarket, aQuote, aSim, BTC } from '../../kit/sim-builders.ts';

describe('sim venue: ADL rank', () => {
  it('ranks a position by PnL% x effective leverage', async () => {
    const t = aSim({ startingBalances: { USDT: D('1000') } });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.send(aMarket('m', 'BUY', '50'));
    t.sim.onMarket(aMark(1, 100));
    // flat PnL: score 0 -> rank 1
    expect((await t.sim.adlRanks()).map((r) => r.rank)).toEqual([1]);
    t.sim.onMarket(aMark(2, 120));
    // upnl 1000, PnL% 0.2; equity 1000 - 2.5 + 1000 = 1997.5; leverage 6000 / 1997.5 = 3.0038; score 0.6008 -> rank 3
    const [rank] = await t.sim.adlRanks(BTC);
    expect(rank).toMatchObject({
      kind: 'adlRank',
      sym: BTC,
      positionId: `${BTC}|NONE`,
      positionSide: 'NONE',
      rank: 3,
    });
    t.sim.onMarket(aMark(3, 150));
    // upnl 2500, PnL% 0.5; equity 3497.5; leverage 7500 / 3497.5 = 2.1444; score 1.0722 -> rank 4
    expect((await t.sim.adlRanks()).map((r) => r.rank)).toEqual([4]);
  });

  it('shows the current rank in the snapshot position view, not the one of the last fill', async () => {
    const t = aSim({ startingBalances: { USDT: D('1000') } });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.send(aMarket('m', 'BUY', '50'));
    t.sim.onMarket(aMark(1, 100));
    // at the fill: flat PnL, score 0 -> rank 1
    expect((await t.sim.snapshot()).positions.map((p) => p.adlRank)).toEqual([1]);
    // mark 150 moves no money: upnl 2500, PnL% 2500 / 5000 = 0.5; equity 1000 - 2.5 + 2500 = 3497.5;
    // leverage 7500 / 3497.5 = 2.1444; score 1.0722 -> rank 4
    t.sim.onMarket(aMark(2, 150));
    expect((await t.sim.snapshot()).positions.map((p) => p.adlRank)).toEqual([4]);
  });

  it('answers 401011 for a sym that is unknown or not ADL-monitored', async () => {
    const spot = 'BINANCE_SPOT_BTC_USDT';
    const t = aSim({ instruments: [anInstrument(BTC), anInstrument(spot)] });
    await expect(t.sim.adlRanks('BINANCE_PERP_NOPE_USDT')).rejects.toMatchObject({ code: 401011 });
    await expect(t.sim.adlRanks(spot)).rejects.toBeInstanceOf(SimVenueError);
  });

  it('sends an ADL rank event when a position rank changes', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.send(aMarket('m', 'BUY', '1'));
    t.sim.advanceTo(1);
    expect(t.of('adlRank').map((e) => e.rank)).toEqual([1]);
  });
});

describe('sim venue: perpetual funding', () => {
  it('charges longs qty x mark x rate when virtual time reaches nextFundingTime, once', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.send(aMarket('m', 'BUY', '2'));
    t.sim.onMarket(aMark(1, 100, { rate: 0.0001, next: 1000 }));
    expect(t.sim.statement()).toEqual([]);
    t.sim.onMarket(aMark(1000, 110, { rate: 0.0001, next: 1000 }));
    t.sim.onMarket(aMark(1001, 110, { rate: 0.0001, next: 1000 }));
    // 2 x 110 x 0.0001 = 0.022 paid
    expect(t.sim.statement().map((f) => [f.type, f.amount.toFixed(), f.ts])).toEqual([
      ['FUNDING_FEE', '-0.022', 1000],
    ]);
    expect(t.sim.ledger().funding.toFixed()).toBe('-0.022');
  });

  it('charges qty x contract size x mark x rate on a contract of less than one unit', () => {
    const t = aSim({ instruments: [anInstrument(BTC, { contractSize: D('0.02') })] });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.send(aMarket('m', 'BUY', '100'));
    t.sim.onMarket(aMark(1, 100, { rate: 0.0001, next: 1000 }));
    t.sim.onMarket(aMark(1000, 110, { rate: 0.0001, next: 1000 }));
    // 100 contracts x 0.02 x 110 x 0.0001 = 0.022 paid
    expect(t.sim.statement().map((f) => [f.type, f.amount.toFixed(), f.ts])).toEqual([
      ['FUNDING_FEE', '-0.022', 1000],
    ]);
    expect(t.sim.ledger().funding.toFixed()).toBe('-0.022');
  });

  it('charges the position held at the funding time, whatever the next event is', () => {
    // Long 2 through funding time 5000, closed by a command arriving at 5499: pays 2 x 100 x 0.0001.
    const held = aSim();
    held.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    held.send(aMarket('open', 'BUY', '2'));
    held.sim.onMarket(aMark(1, 100, { rate: 0.0001, next: 5000 }));
    held.sim.advanceTo(5499);
    held.send(aMarket('close', 'SELL', '2'));
    held.sim.onMarket(aMark(5500, 100, { rate: 0.0001, next: 5000 }));
    expect(held.sim.statement().map((f) => [f.type, f.amount.toFixed(), f.ts])).toEqual([
      ['FUNDING_FEE', '-0.02', 5000],
    ]);
    // Flat at 5000, long 2 from 5499: pays nothing.
    const late = aSim();
    late.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    late.sim.onMarket(aMark(1, 100, { rate: 0.0001, next: 5000 }));
    late.sim.advanceTo(5499);
    late.send(aMarket('open', 'BUY', '2'));
    late.sim.onMarket(aMark(5500, 100, { rate: 0.0001, next: 5000 }));
    expect(late.sim.statement()).toEqual([]);
  });

  it('pays shorts when the rate is positive', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.send(aMarket('m', 'SELL', '3'));
    t.sim.onMarket(aMark(1, 100, { rate: 0.0002, next: 500 }));
    t.sim.onMarket(aMark(600, 100, { rate: 0.0001, next: 1500 }));
    expect(t.sim.statement().map((f) => f.amount.toFixed())).toEqual(['0.06']);
  });
});
