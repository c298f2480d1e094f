import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import {
  aHedgedBtcAccount,
  aMark,
  aMarket,
  aQuote,
  aSim,
  BTC,
  type SimUnderTest,
} from '../../kit/sim-builders.ts';

const ETH = 'BINANCE_PERP_ETH_USDT';
const HOUR = 3_600_000;

/** The liqPrice a strategy last heard for a position (from the Positions channel), 6 decimals. */
function heardLiq(t: SimUnderTest, positionId: string): string | undefined {
  return t
    .of('position')
    .filter((e) => e.position.positionId === positionId)
    .at(-1)
    ?.position.liqPrice.toFixed(6);
}

function publications(t: SimUnderTest, positionId: string): number {
  return t.of('position').filter((e) => e.position.positionId === positionId).length;
}

/** 300 USDT; long 10 BTC and 10 ETH perps at 100 (taker 5 bps: fees 0.5 each), marks 100. */
function twoLongs(): SimUnderTest {
  const t = aSim({
    instruments: [anInstrument(BTC), anInstrument(ETH)],
    startingBalances: { USDT: D('300') },
  });
  for (const sym of [BTC, ETH]) {
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100, sym));
    t.sim.onMarket(aMark(0, 100, undefined, sym));
  }
  t.send(aMarket('a', 'BUY', '10'));
  t.sim.advanceTo(1);
  t.send(aMarket('b', 'BUY', '10', { sym: ETH }));
  t.sim.advanceTo(2);
  return t;
}

describe('sim venue: liqPrice the strategy hears stays current', () => {
  it('republishes the other leg of a BOTH-mode sym with the price both legs share', () => {
    const t = aHedgedBtcAccount();
    // Long alone: 299.5 + (P - 1000) = 0.005 P -> P = 700.5 / 0.995. With the short (fees 0.75):
    // 299.25 + (P - 1000) - 0.5 (P - 1000) = 1.5 x 0.005 P -> P = 200.75 / 0.4925 for both legs.
    const both = D('200.75').div('0.4925').toFixed(6);
    expect([heardLiq(t, `${BTC}|LONG`), heardLiq(t, `${BTC}|SHORT`)]).toEqual([both, both]);
  });

  it('republishes a position when a fill on another sym moves its liqPrice', () => {
    const t = twoLongs();
    // BTC alone: 299.5 + 10 (P - 100) = 0.05 P -> P = 700.5 / 9.95. With the ETH long (fee 0.5,
    // MM 5 at mark 100): 299 + 10 (P - 100) = 0.05 P + 5 -> P = 706 / 9.95.
    expect(heardLiq(t, `${BTC}|NONE`)).toBe(D(706).div('9.95').toFixed(6));
    expect(heardLiq(t, `${ETH}|NONE`)).toBe(D(706).div('9.95').toFixed(6));
  });

  it("republishes a position when another sym's mark moves its liqPrice beyond the tolerance, not on every tick", () => {
    const t = twoLongs();
    t.sim.onMarket(aMark(3, 90, undefined, ETH));
    // ETH at 90: 299 + 10 (P - 100) - 100 = 0.05 P + 4.5 -> P = 805.5 / 9.95 = 80.95
    expect(heardLiq(t, `${BTC}|NONE`)).toBe(D('805.5').div('9.95').toFixed(6));
    // ETH's own mark cancels out of its liqPrice: it stays 706 / 9.95, and is not republished.
    expect(heardLiq(t, `${ETH}|NONE`)).toBe(D(706).div('9.95').toFixed(6));
    const btcHeard = publications(t, `${BTC}|NONE`);
    const ethHeard = publications(t, `${ETH}|NONE`);
    // 90 -> 89.99 moves BTC's liqPrice by 0.0995 / 9.95 = 0.01, 0.012 % of it: under the 0.1 % tolerance.
    t.sim.onMarket(aMark(4, 89.99, undefined, ETH));
    expect(publications(t, `${BTC}|NONE`)).toBe(btcHeard);
    // 90 -> 89: 299 + 10 (P - 100) - 110 = 0.05 P + 4.45 -> P = 815.45 / 9.95, moved by 1 (1.2 %):
    // republished, exactly.
    t.sim.onMarket(aMark(5, 89, undefined, ETH));
    expect(heardLiq(t, `${BTC}|NONE`)).toBe(D('815.45').div('9.95').toFixed(6));
    expect(publications(t, `${BTC}|NONE`)).toBe(btcHeard + 1);
    expect(publications(t, `${ETH}|NONE`)).toBe(ethHeard);
  });

  it('publishes nothing on mark moves while every open position is on one sym', () => {
    const t = aSim({ startingBalances: { USDT: D('200') } });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.send(aMarket('m', 'BUY', '10'));
    t.sim.advanceTo(1);
    const heard = t.events.length;
    for (let i = 0; i < 20; i++) t.sim.onMarket(aMark(2 + i, 100 - i / 2));
    expect(t.events.length).toBe(heard);
  });

  it('republishes positions when a borrow and hourly interest move the maintenance margin and equity', () => {
    const t = aSim({
      startingBalances: { USDT: D('200') },
      loans: { assets: { 'BINANCE:USDT': { annualRate: D('0.0876'), userQuota: D(1000), pool: D(1000) } } },
    });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.send(aMarket('m', 'BUY', '10'));
    t.sim.advanceTo(1);
    // 199.5 + 10 (P - 100) = 0.05 P -> P = 800.5 / 9.95
    expect(heardLiq(t, `${BTC}|NONE`)).toBe(D('800.5').div('9.95').toFixed(6));
    t.send({ kind: 'borrow', ref: 'b', exchange: 'BINANCE', coin: 'USDT', amount: D(100) });
    t.sim.advanceTo(2);
    // The loan adds 100 x 0.05 = 5 of maintenance margin: 9.95 P = 805.5
    expect(heardLiq(t, `${BTC}|NONE`)).toBe(D('805.5').div('9.95').toFixed(6));
    // One hour: 100 x 0.0876 / 8760 = 0.001 of interest leaves the balance: 9.95 P = 805.501
    t.sim.advanceTo(2 + HOUR);
    expect(heardLiq(t, `${BTC}|NONE`)).toBe(D('805.501').div('9.95').toFixed(6));
  });

  it('republishes every position funding moved, on the sym paid and on others', () => {
    const t = twoLongs();
    // ETH pays funding 0.001 x 10 x 100 = 1 at t=10: 298 + 10 (P - 100) = 0.05 P + 5 -> 9.95 P = 707
    t.sim.onMarket(aMark(3, 100, { rate: 0.001, next: 10 }, ETH));
    t.sim.onMarket(aMark(11, 100, { rate: 0.001, next: 20 }, ETH));
    expect(heardLiq(t, `${BTC}|NONE`)).toBe(D(707).div('9.95').toFixed(6));
    expect(heardLiq(t, `${ETH}|NONE`)).toBe(D(707).div('9.95').toFixed(6));
  });
});
