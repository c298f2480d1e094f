import { describe, expect, it } from 'vitest';
import { venueTimeOf } from '../../../backtest/sim/venue-time.ts';
import type { MarketEvent, MarketTradeEvent, QuoteEvent } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import { aLimit, aMark, aMarket, anAlgo, aQuote, aSim, BTC, fillLines } from '../../kit/sim-builders.ts';

// Orders take 20 ms to reach the venue; the recorder's receive times (recvTs) hold the feed's delay.
const latency = {
  orderEntry: { fixedMs: 20, jitterMs: 0 },
  marketData: { fixedMs: 0, jitterMs: 0 },
  userData: { fixedMs: 0, jitterMs: 0 },
};

/** A print the venue stamped `ts` and the recorder received at `recvTs`. */
function print(
  ts: number,
  recvTs: number,
  price: number,
  qty: number,
  side: 'BUY' | 'SELL',
): MarketTradeEvent {
  return { kind: 'trade', sym: BTC, ts, recvTs, tradeId: `t${ts}-${recvTs}`, price, qty, side };
}

/** A BBO the venue stamped `ts` and the recorder received at `recvTs`. */
function quote(
  ts: number,
  recvTs: number,
  bid: number,
  bidQty: number,
  ask: number,
  askQty: number,
): QuoteEvent {
  return { ...aQuote(ts, bid, bidQty, ask, askQty), recvTs };
}

/** A sim on `fillModel` whose limit BUY 1 @ 100, sent at 1000 on a 99.9 / 100.1 quote, reaches the venue at 1020. */
function restingBuyAt1020(fillModel: 'touch' | 'through' | 'queue') {
  const t = aSim({ latency, fillModel });
  t.sim.onMarket(aQuote(1_000, 99.9, 5, 100.1, 5));
  t.send(aLimit('b', 'BUY', '1', '100'));
  return t;
}

describe('venueTimeOf', () => {
  it("is a print's venue stamp, or its receive time when the stamp is missing or later than the receipt", () => {
    const base = print(1_000, 1_000, 100, 1, 'SELL');
    expect(venueTimeOf({ ...base, ts: 990, recvTs: 1_000 })).toBe(990);
    expect(venueTimeOf({ ...base, ts: 1_000, recvTs: 1_000 })).toBe(1_000);
    // A venue clock ahead of the recorder's: the print cannot have happened after it was received.
    expect(venueTimeOf({ ...base, ts: 5_000, recvTs: 1_000 })).toBe(1_000);
    // No venue stamp (a hand-made or foreign recording).
    expect(venueTimeOf({ ...base, ts: Number.NaN, recvTs: 1_000 } as MarketEvent)).toBe(1_000);
  });

  it('is the receive time of a quote or mark: the state stood from its stamp on, so an order that arrived after the stamp met it', () => {
    expect(venueTimeOf({ ...aQuote(990, 99, 1, 101, 1), recvTs: 1_000 })).toBe(1_000);
    expect(venueTimeOf({ ...aMark(990, 100), recvTs: 1_000 })).toBe(1_000);
  });
});

describe('sim venue: only prints made on the venue at or after an order arrived meet it; quotes and marks standing then do', () => {
  it('through: a SELL print below the limit stamped before the arrival does not fill; one stamped at the arrival does', () => {
    const t = restingBuyAt1020('through');
    t.sim.onMarket(print(1_005, 1_030, 99.5, 1, 'SELL'));
    expect(fillLines(t)).toEqual([]);
    t.sim.onMarket(print(1_020, 1_040, 99.5, 1, 'SELL'));
    expect(fillLines(t)).toEqual(['b BUY 1@100 MAKER']);
  });

  it('touch: a SELL print at the limit stamped before the arrival does not fill; one after it does', () => {
    const t = restingBuyAt1020('touch');
    t.sim.onMarket(print(1_019, 1_030, 100, 1, 'SELL'));
    expect(fillLines(t)).toEqual([]);
    t.sim.onMarket(print(1_025, 1_035, 100, 1, 'SELL'));
    expect(fillLines(t)).toEqual(['b BUY 1@100 MAKER']);
  });

  it('queue: a SELL print at the limit (nothing displayed ahead) stamped before the arrival does not fill; one after it does', () => {
    const t = restingBuyAt1020('queue');
    t.sim.onMarket(print(1_005, 1_030, 100, 1, 'SELL'));
    expect(fillLines(t)).toEqual([]);
    t.sim.onMarket(print(1_021, 1_031, 100, 1, 'SELL'));
    expect(fillLines(t)).toEqual(['b BUY 1@100 MAKER']);
  });

  it('queue: a print stamped before an order arrived does not move it up its queue', () => {
    const t = aSim({ latency, fillModel: 'queue' });
    t.sim.onMarket(aQuote(1_000, 100, 3, 100.1, 5));
    // a reaches the venue at 1020 behind the 3 displayed at 100; b, sent at 1020, at 1040 behind the same 3.
    t.send(aLimit('a', 'BUY', '1', '100'));
    t.sim.advanceTo(1_020);
    t.send(aLimit('b', 'BUY', '1', '100'));
    // Stamped 1030: eats the 3 ahead of a (there since 1020), not b's queue (b was not there yet).
    t.sim.onMarket(print(1_030, 1_045, 100, 3, 'SELL'));
    expect(fillLines(t)).toEqual([]);
    // 2 sold at 100: 1 fills a, the other 1 is ahead of b's queue of 3 (2 left).
    t.sim.onMarket(print(1_050, 1_050, 100, 2, 'SELL'));
    expect(fillLines(t)).toEqual(['a BUY 1@100 MAKER']);
  });

  it('through, quotes: an ask through the limit displayed before the arrival and standing then fills it', () => {
    const t = restingBuyAt1020('through');
    // Displayed from 1010 to the next update: the bid arriving at 1020 met it standing.
    t.sim.onMarket(quote(1_010, 1_030, 99.7, 5, 99.8, 5));
    expect(fillLines(t)).toEqual(['b BUY 1@100 MAKER']);
  });

  it('a print before a better-priced order arrived fills the worse-priced order that was there, not the better one', () => {
    const t = aSim({ latency, fillModel: 'through' });
    t.sim.onMarket(aQuote(900, 99.9, 5, 100.1, 5));
    t.send(aLimit('early', 'BUY', '1', '99.6'));
    t.sim.advanceTo(1_000);
    t.send(aLimit('late', 'BUY', '1', '100'));
    // Stamped 1005: early rests since 920, late arrives at 1020.
    t.sim.onMarket(print(1_005, 1_030, 99.5, 5, 'SELL'));
    expect(fillLines(t)).toEqual(['early BUY 1@99.6 MAKER']);
  });

  it('an event stamped later than it was received counts at its receipt', () => {
    const t = restingBuyAt1020('through');
    t.sim.onMarket(print(9_000, 1_030, 99.5, 1, 'SELL'));
    expect(fillLines(t)).toEqual(['b BUY 1@100 MAKER']);
  });

  it('a market order takes the book received by its arrival, not a quote received after it that the venue stamped before', () => {
    const t = aSim({ latency });
    t.sim.onMarket(aQuote(1_000, 99.9, 5, 100.1, 5));
    t.send(aMarket('m', 'BUY', '1'));
    // Arrives at 1020 and takes the 100.1 ask; the venue's 1010 quote reached the recorder at 1030.
    t.sim.onMarket(quote(1_010, 1_030, 100.4, 5, 100.5, 5));
    expect(fillLines(t)).toEqual(['m BUY 1@100.1 TAKER']);
  });

  it('an algo order on the last price is not triggered by a print stamped before it arrived; one after is', () => {
    const t = aSim({ latency });
    t.sim.onMarket(aQuote(1_000, 104.9, 5, 105.1, 5));
    t.send(anAlgo('a', { triggerPrice: D('105') }));
    // Received at 1030, stamped 1005: the algo order reached the venue at 1020.
    t.sim.onMarket(print(1_005, 1_030, 105, 1, 'BUY'));
    expect(t.of('algoOrder').map((e) => e.algoOrder.state)).toEqual(['NEW']);
    t.sim.onMarket(print(1_020, 1_040, 105, 1, 'BUY'));
    expect(t.of('algoOrder').map((e) => e.algoOrder.state)).toEqual(['NEW', 'TRIGGERED']);
    expect(fillLines(t)).toEqual(['a-trig BUY 1@105.1 TAKER']);
  });

  it('a held conditional order is not released by a print stamped before it arrived; one after is', () => {
    const t = aSim({ latency });
    t.sim.onMarket(aQuote(1_000, 101.9, 5, 102.1, 5));
    t.send(aMarket('u', 'BUY', '1', { condition: { code: 'UT', triggerPrice: D('102') } }));
    t.sim.onMarket(print(1_010, 1_030, 102, 1, 'BUY'));
    expect(fillLines(t)).toEqual([]);
    t.sim.onMarket(print(1_020, 1_040, 102, 1, 'BUY'));
    expect(fillLines(t)).toEqual(['u BUY 1@102.1 TAKER']);
  });

  it('bars: a mark-price algo order is triggered by a mark stamped before it arrived and standing then (a stop-loss must fire)', () => {
    const t = aSim({ latency, fillModel: 'bar' });
    t.sim.advanceTo(1_000);
    t.send(anAlgo('a', { triggerPrice: D('105'), triggerType: 'MarkPrice' }));
    // The mark 106 stood from 1010 until the next one: the algo order arriving at 1020 met it.
    t.sim.onMarket({ ...aMark(1_010, 106), recvTs: 1_030 });
    expect(t.of('algoOrder').map((e) => e.algoOrder.state)).toEqual(['NEW', 'TRIGGERED']);
  });

  it('a tp / sl placed on a fill exists from the print that filled it, not from its receipt', () => {
    const t = restingBuyAt1020('through');
    t.send(
      aLimit('p', 'BUY', '1', '100', {
        sl: { triggerPrice: D('99'), triggerType: 'LastPrice', price: D('0') },
      }),
    );
    // p reaches the venue at 1020 too (sent at 1000); a print stamped 1025 fills b and p.
    t.sim.onMarket(print(1_025, 1_060, 99.5, 2, 'SELL'));
    expect(fillLines(t)).toEqual(['b BUY 1@100 MAKER', 'p BUY 1@100 MAKER']);
    // Stamped 1030, after the sl was attached at 1025 (venue time), though received before 1060.
    t.sim.onMarket(print(1_030, 1_061, 98.9, 1, 'SELL'));
    expect(t.of('algoOrder').map((e) => [e.algoOrder.clientAlgoOrderId, e.algoOrder.state])).toEqual([
      ['p-sl', 'NEW'],
      ['p-sl', 'TRIGGERED'],
    ]);
  });
});
