import { describe, expect, it } from 'vitest';
import type { BarEvent, BarInterval } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import {
  aBar,
  aLimit,
  aMark,
  aMarket,
  anAlgo,
  aSim,
  fillLines,
  type SimUnderTest,
} from '../../kit/sim-builders.ts';

// The builders' instrument: maker 2 bps, taker 5 bps, tick 0.1; 10 000 USDT, zero latency unless
// told otherwise. aBar(ts, ...) is the 1m bar [ts - 60 000, ts), received at ts.

/** Each fill as `ref side qty@price execType at <ts>`. */
function fillsAt(t: SimUnderTest): string[] {
  return t
    .of('execution')
    .map(
      ({ execution: e }) =>
        `${e.clientOrderId} ${e.side} ${e.quantity.toFixed()}@${e.price.toFixed()} ${e.execType} at ${e.timestamp}`,
    );
}

/** A bar sim that has seen the bar [0, 60 000) closing at 100: it is now 60 000. */
function aBarSim(overrides: Parameters<typeof aSim>[0] = {}): SimUnderTest {
  const t = aSim({ fillModel: 'bar', ...overrides });
  t.sim.onMarket(aBar(60_000, 99, 101, 98, 100));
  return t;
}

/** A closed bar of any interval, received at its close. */
function aBarOf(interval: BarInterval, openTime: number, ms: number, ohlc: readonly number[]): BarEvent {
  const [open = 0, high = 0, low = 0, close = 0] = ohlc;
  const ts = openTime + ms;
  return {
    kind: 'bar',
    sym: 'BINANCE_PERP_BTC_USDT',
    ts,
    recvTs: ts,
    interval,
    openTime,
    open,
    high,
    low,
    close,
    volume: 100,
    closed: true,
  };
}

describe('sim venue on bars: an order meets only bars that opened before it arrived', () => {
  it('fills a market order received inside a bar at the next bar open, not at the open of the bar it arrived in', () => {
    const t = aBarSim();
    t.sim.advanceTo(90_000);
    t.send(aMarket('m', 'BUY', '1'));
    // The bar [60 000, 120 000) opened at 101 before the order existed: it does not fill there.
    t.sim.onMarket(aBar(120_000, 101, 102, 100, 101));
    expect(fillsAt(t)).toEqual([]);
    // The next bar opens at 105 after the order arrived: taker 1 x 105 x 5 bps = 0.0525.
    t.sim.onMarket(aBar(180_000, 105, 106, 104, 105));
    expect(fillsAt(t)).toEqual(['m BUY 1@105 TAKER at 120000']);
  });

  it('keeps filling an order received at the close of the bar before at the next open', () => {
    const t = aBarSim();
    t.send(aMarket('m', 'BUY', '1'));
    t.sim.onMarket(aBar(120_000, 101, 102, 100, 101));
    expect(fillsAt(t)).toEqual(['m BUY 1@101 TAKER at 60000']);
  });

  it('matches a limit placed inside a bar against the next bar only, not the range before it existed', () => {
    const t = aBarSim();
    t.sim.onMarket(aBar(120_000, 101, 102, 100, 101));
    t.sim.advanceTo(150_000);
    t.send(aLimit('l', 'BUY', '1', '104.5'));
    // [120 000, 180 000) reaches 104, but the limit came at 150 000, inside it.
    t.sim.onMarket(aBar(180_000, 105, 106, 104, 105));
    expect(fillsAt(t)).toEqual([]);
    t.sim.onMarket(aBar(240_000, 105, 106, 104, 105));
    expect(fillsAt(t)).toEqual(['l BUY 1@104.5 MAKER at 240000']);
  });

  it('gives an order sent on the previous close the next open whatever the latency, and one sent later the bar after', () => {
    // Order entry 10 ms, market data 5 ms: a strategy sees the close at 60 005 and its order arrives at
    // 60 015, after the open of [60 000, 120 000): still that bar's open. One sent 30 s in is not.
    const latency = { orderEntry: { fixedMs: 10, jitterMs: 0 }, marketData: { fixedMs: 5, jitterMs: 0 } };
    const t = aBarSim({ latency });
    t.sim.advanceTo(60_005);
    t.send(aMarket('onClose', 'BUY', '1'));
    t.sim.advanceTo(90_000);
    t.send(aMarket('midBar', 'BUY', '1'));
    t.sim.onMarket(aBar(120_000, 101, 102, 100, 101));
    t.sim.onMarket(aBar(180_000, 105, 106, 104, 105));
    expect(fillsAt(t)).toEqual(['onClose BUY 1@101 TAKER at 60015', 'midBar BUY 1@105 TAKER at 120000']);
  });

  it('allows the order-entry delay a paper venue applied before submitting, as its own', () => {
    // The paper venue holds each command back 10 ms and submits it at its arrival, with the sim's own
    // order-entry leg zero: sent on the close at 60 000, the order and the stop arrive at 60 010,
    // after the open of [60 000, 120 000), and still meet it, as in a backtest with that latency.
    const t = aBarSim({ upstreamOrderEntry: { fixedMs: 10, jitterMs: 0 } });
    t.sim.advanceTo(60_010);
    t.send(
      aMarket('onClose', 'BUY', '1'),
      anAlgo('stop', {
        side: 'SELL',
        qty: D('1'),
        conditionType: 'LTE',
        triggerPrice: D('97'),
        reduceOnly: true,
      }),
    );
    t.sim.onMarket(aBar(120_000, 101, 102, 96, 100));
    expect(fillsAt(t)).toEqual(['onClose BUY 1@101 TAKER at 60010', 'stop-trig SELL 1@97 TAKER at 120000']);
  });

  it('does not fire an algo order placed inside a bar on that bar range', () => {
    const t = aBarSim();
    t.send(aMarket('m', 'BUY', '1'));
    t.sim.onMarket(aBar(120_000, 100, 101, 99, 100));
    t.sim.advanceTo(150_000);
    t.send(
      anAlgo('stop', {
        side: 'SELL',
        qty: D('1'),
        conditionType: 'LTE',
        triggerPrice: D('97'),
        reduceOnly: true,
      }),
    );
    // [120 000, 180 000) fell to 96 before the stop existed.
    t.sim.onMarket(aBar(180_000, 100, 101, 96, 100));
    expect(fillLines(t)).toEqual(['m BUY 1@100 TAKER']);
    t.sim.onMarket(aBar(240_000, 100, 101, 96, 100));
    expect(fillLines(t)).toEqual(['m BUY 1@100 TAKER', 'stop-trig SELL 1@97 TAKER']);
  });

  it('fires an algo order replaced inside a bar on its new trigger from the next bar on', () => {
    const t = aBarSim();
    t.send(aMarket('m', 'BUY', '1'));
    t.sim.onMarket(aBar(120_000, 100, 101, 99, 100));
    t.send(
      anAlgo('stop', {
        side: 'SELL',
        qty: D('1'),
        conditionType: 'LTE',
        triggerPrice: D('90'),
        reduceOnly: true,
      }),
    );
    t.sim.advanceTo(150_000);
    t.send({
      kind: 'replaceAlgoOrder',
      ref: 'move',
      target: 'stop',
      sym: 'BINANCE_PERP_BTC_USDT',
      triggerPrice: D('97'),
    });
    // The bar falls to 96: the stop at 97 exists only from 150 000, inside it; at 90 it never fired.
    t.sim.onMarket(aBar(180_000, 100, 101, 96, 100));
    expect(fillLines(t)).toEqual(['m BUY 1@100 TAKER']);
    t.sim.onMarket(aBar(240_000, 100, 101, 96, 100));
    expect(fillLines(t)).toEqual(['m BUY 1@100 TAKER', 'stop-trig SELL 1@97 TAKER']);
  });

  it('matches an order amended inside a bar on its new terms from the next bar on', () => {
    const t = aBarSim();
    t.send(aLimit('l', 'BUY', '1', '95'));
    t.sim.advanceTo(90_000);
    t.send({ kind: 'modifyOrder', ref: 'amend', target: 'l', sym: 'BINANCE_PERP_BTC_USDT', price: D('99') });
    // The bar reaches 98.5: the limit at 99 exists only from 90 000, inside it; at 95 it never filled.
    t.sim.onMarket(aBar(120_000, 100, 101, 98.5, 100));
    expect(fillsAt(t)).toEqual([]);
    t.sim.onMarket(aBar(180_000, 100, 101, 98.5, 100));
    expect(fillsAt(t)).toEqual(['l BUY 1@99 MAKER at 180000']);
  });
});

describe('sim venue on bars of several intervals of one sym', () => {
  const M1 = 60_000;
  const quiet = [100, 101, 99, 100];

  it('matches the 1m bars and passes over the 5m bar they cover, even for an order resting from the start', () => {
    const t = aSim({ fillModel: 'bar' });
    t.send(aLimit('l', 'BUY', '1', '95'));
    for (let i = 0; i < 5; i++) t.sim.onMarket(aBarOf('1m', i * M1, M1, quiet));
    // The 5m bar's low 94 came inside one of the 1m bars, whose lows were 99: no fill at 95.
    t.sim.onMarket(aBarOf('5m', 0, 5 * M1, [100, 101, 94, 100]));
    expect(fillsAt(t)).toEqual([]);
    expect(t.sim.barOverlaps()).toEqual([
      { sym: 'BINANCE_PERP_BTC_USDT', matched: ['1m'], passedOver: [['5m', 1]] },
    ]);
  });

  it('matches a coarser bar where no finer bar reached', () => {
    const t = aSim({ fillModel: 'bar' });
    for (let i = 0; i < 5; i++) t.sim.onMarket(aBarOf('1m', i * M1, M1, quiet));
    t.send(aLimit('l', 'BUY', '1', '95'));
    t.sim.onMarket(aBarOf('5m', 5 * M1, 5 * M1, [100, 101, 94, 100]));
    expect(fillsAt(t)).toEqual([`l BUY 1@95 MAKER at ${10 * M1}`]);
    expect(t.sim.barOverlaps()).toEqual([]);
  });
});

describe('sim venue on bars: mark-price triggers with recorded marks', () => {
  /**
   * Long 1 from the open 100 of [60 000, 120 000) and a MarkPrice stop at 96; with `mark`, the
   * recording gives a mark of 99.5 at 60 001.
   */
  function longWithMarkStop(mark = true): SimUnderTest {
    const t = aBarSim();
    t.send(aMarket('m', 'BUY', '1'));
    t.send(
      anAlgo('stop', {
        side: 'SELL',
        qty: D('1'),
        conditionType: 'LTE',
        triggerType: 'MarkPrice',
        triggerPrice: D('96'),
        reduceOnly: true,
      }),
    );
    if (mark) t.sim.onMarket(aMark(60_001, 99.5));
    return t;
  }

  it('does not fire on the bar path when the marks stayed above the trigger', () => {
    const t = longWithMarkStop();
    t.sim.onMarket(aBar(120_000, 100, 101, 95, 100));
    t.sim.onMarket(aMark(120_001, 99.5));
    t.sim.onMarket(aBar(180_000, 100, 101, 99, 100));
    expect(fillLines(t)).toEqual(['m BUY 1@100 TAKER']);
  });

  it('fires when a mark reaches the trigger and sells at the open of the bar after', () => {
    const t = longWithMarkStop();
    t.sim.onMarket(aBar(120_000, 100, 101, 99, 100));
    // The mark falls to 95.5 inside [120 000, 180 000); its last prices never went under 99.
    t.sim.onMarket(aMark(150_000, 95.5));
    t.sim.onMarket(aBar(180_000, 100, 101, 99, 100));
    expect(fillLines(t)).toEqual(['m BUY 1@100 TAKER']);
    t.sim.onMarket(aBar(240_000, 100.5, 101, 99, 100));
    expect(fillsAt(t)).toEqual(['m BUY 1@100 TAKER at 60000', 'stop-trig SELL 1@100.5 TAKER at 180000']);
  });

  it('falls back to the bar path while the recording has given no mark for the sym', () => {
    const t = longWithMarkStop(false);
    t.sim.onMarket(aBar(120_000, 100, 101, 95, 100));
    expect(fillLines(t)).toEqual(['m BUY 1@100 TAKER', 'stop-trig SELL 1@96 TAKER']);
  });
});
