import { describe, expect, it } from 'vitest';
import { type BarEvent, D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aBar, aLimit, aMark, aMarket, aSim, BTC } from '../../kit/sim-builders.ts';

// The look-ahead reviewer's cases (session 23): on the bar fill model an event stamped inside a
// bar's span that reaches the venue before the bar (a mark, another sym's bar) moves the venue
// into the span, and its timers, margin and mark checks run before the bar's open fills. The sim
// does so still (README "Time and latency"); `earlySpanWork` tells when it happened.

// 1m bars received at their close, plus marks. Funding is due at T+30s, inside the bar [T, T+60s).
const T = 600_000;
const FUNDING = T + 30_000;

describe('earlySpanWork: funding inside a bar, settled on a mark before the bar arrives', () => {
  it('counts the bar whose open buy the funding did not see', () => {
    const t = aSim({ fillModel: 'bar' });
    t.sim.onMarket(aMark(T - 1_000, 100, { rate: 0.01, next: FUNDING }));
    t.sim.onMarket(aBar(T, 100, 100, 100, 100)); // [T-60s, T), received at T
    t.send(aMarket('buy', 'BUY', '1')); // fills at the next bar's open T
    t.sim.advanceTo(T);
    t.sim.onMarket(aMark(FUNDING + 1_000, 100, { rate: 0.01, next: FUNDING + 8 * 3_600_000 }));
    t.sim.onMarket(aBar(T + 60_000, 100, 100, 100, 100)); // [T, T+60s)
    // The model's limit, unchanged: the long bought at T pays no funding due at T+30s.
    expect(t.sim.statement()).toEqual([]);
    expect(t.sim.earlySpanWork()).toEqual({
      bars: 1,
      sym: BTC,
      barOpen: T,
      what: `the funding of ${BTC}`,
      at: FUNDING,
    });
  });

  it('counts nothing when the funding falls after the bar that fills the order', () => {
    const t = aSim({ fillModel: 'bar' });
    t.sim.onMarket(aMark(T - 1_000, 100, { rate: 0.01, next: T + 90_000 }));
    t.sim.onMarket(aBar(T, 100, 100, 100, 100));
    t.send(aMarket('buy', 'BUY', '1'));
    t.sim.advanceTo(T);
    t.sim.onMarket(aMark(T + 30_000, 100, { rate: 0.01, next: T + 90_000 }));
    t.sim.onMarket(aBar(T + 60_000, 100, 100, 100, 100)); // the buy fills at T
    t.sim.onMarket(aMark(T + 91_000, 100, { rate: 0.01, next: T + 90_000 + 8 * 3_600_000 }));
    t.sim.onMarket(aBar(T + 120_000, 100, 100, 100, 100));
    expect(t.sim.statement().map((f) => [f.type, f.amount.toFixed(), f.ts])).toEqual([
      ['FUNDING_FEE', '-1', T + 90_000],
    ]);
    expect(t.sim.earlySpanWork()).toBeUndefined();
  });

  it('counts nothing for funding inside a bar whose open filled nothing (a limit resting below it)', () => {
    const t = aSim({ fillModel: 'bar' });
    t.sim.onMarket(aMark(T - 1_000, 100, { rate: 0.01, next: FUNDING }));
    t.sim.onMarket(aBar(T, 100, 100, 100, 100));
    t.send(aLimit('low', 'BUY', '1', '90'));
    t.sim.advanceTo(T);
    t.sim.onMarket(aMark(FUNDING + 1_000, 100, { rate: 0.01, next: FUNDING + 8 * 3_600_000 }));
    t.sim.onMarket(aBar(T + 60_000, 100, 100, 95, 100));
    expect(t.of('execution')).toEqual([]);
    expect(t.sim.earlySpanWork()).toBeUndefined();
  });

  it('counts nothing for funding inside a bar with no order of the sym live at its open', () => {
    const t = aSim({ fillModel: 'bar' });
    t.sim.onMarket(aMark(T - 1_000, 100, { rate: 0.01, next: FUNDING }));
    t.sim.onMarket(aBar(T, 100, 100, 100, 100));
    t.sim.onMarket(aMark(FUNDING + 1_000, 100, { rate: 0.01, next: FUNDING + 8 * 3_600_000 }));
    t.sim.onMarket(aBar(T + 60_000, 100, 100, 100, 100));
    expect(t.sim.earlySpanWork()).toBeUndefined();
  });
});

describe('earlySpanWork: a mark wick inside a bar liquidates before the bar open closes the long', () => {
  it('counts the bar and names the liquidation', () => {
    // Builders' instrument: taker 5 bps, leverage 10, maintenance 0.5 %. 20 USDT, long 1 at 100:
    // liquidated once the mark is below 80.4523 (see bar-liquidation.test.ts).
    const t = aSim({ fillModel: 'bar', startingBalances: { USDT: D('20') } });
    t.sim.onMarket(aMark(T - 120_500, 100));
    t.sim.onMarket(aBar(T - 60_000, 100, 100, 100, 100));
    t.send(aMarket('buy', 'BUY', '1'));
    t.sim.advanceTo(T - 60_000);
    t.sim.onMarket(aMark(T - 500, 100));
    t.sim.onMarket(aBar(T, 100, 100, 100, 100)); // the buy fills at T-60s
    t.send(aMarket('sell', 'SELL', '1')); // fills at the open of [T, T+60s)
    t.sim.advanceTo(T);
    t.sim.onMarket(aMark(T + 10_000, 79));
    t.sim.onMarket(aMark(T + 20_000, 100));
    t.sim.onMarket(aBar(T + 60_000, 100, 100, 79, 100));
    // The model's limit, unchanged: the wick liquidates the long the open sell would have closed.
    expect(t.of('liquidationPosition')).not.toEqual([]);
    expect(t.sim.earlySpanWork()).toEqual({
      bars: 1,
      sym: BTC,
      barOpen: T,
      what: 'a liquidation',
      at: T + 10_000,
    });
  });
});

const AAPL = 'US_EQUITY_AAPL';
const at = (iso: string): number => Date.parse(iso);

function aBarOf(
  sym: string,
  interval: '1h' | '1d',
  openIso: string,
  closeIso: string,
  [open, high, low, close]: readonly [number, number, number, number],
): BarEvent {
  const ts = at(closeIso);
  return {
    kind: 'bar',
    sym,
    ts,
    recvTs: ts,
    interval,
    openTime: at(openIso),
    open,
    high,
    low,
    close,
    volume: 1e6,
    closed: true,
  };
}

function aaplAndBtc() {
  return aSim({
    fillModel: 'bar',
    instruments: [
      anInstrument(AAPL, { tickSize: D('0.01'), lotSize: D('1'), minSize: D('1'), settleAsset: 'USD' }),
      anInstrument(BTC),
    ],
    startingBalances: { USD: D('100000'), USDT: D('10000') },
  });
}

describe('earlySpanWork: another sym inside a daily bar', () => {
  it('holds the AAPL DAY limit expiring inside its daily bar for that bar, a BTC bar coming first', () => {
    const t = aaplAndBtc();
    t.sim.onMarket(aBarOf(AAPL, '1d', '2026-03-05T05:00:00Z', '2026-03-06T05:00:00Z', [190, 192, 188, 191]));
    t.send(aLimit('dip', 'BUY', '10', '187.5', { sym: AAPL, timeInForce: 'DAY' }));
    t.sim.advanceTo(at('2026-03-06T05:00:00Z'));
    t.sim.onMarket(aBarOf(BTC, '1h', '2026-03-06T21:00:00Z', '2026-03-06T22:00:00Z', [100, 101, 99, 100]));
    t.sim.onMarket(
      aBarOf(AAPL, '1d', '2026-03-06T05:00:00Z', '2026-03-07T05:00:00Z', [190.5, 191, 186, 189]),
    );
    // The expiry at 16:00 New York waits for Friday's AAPL bar, which fills the order first.
    expect(t.of('execution').map((e) => e.execution.clientOrderId)).toEqual(['dip']);
    expect(t.sim.earlySpanWork()).toBeUndefined();
  });

  it('counts nothing when the other sym has bars inside the day but the AAPL order sees its bar', () => {
    const t = aaplAndBtc();
    t.sim.onMarket(aBarOf(AAPL, '1d', '2026-03-05T05:00:00Z', '2026-03-06T05:00:00Z', [190, 192, 188, 191]));
    t.send(aLimit('dip', 'BUY', '10', '187.5', { sym: AAPL, timeInForce: 'GTC' }));
    t.sim.advanceTo(at('2026-03-06T05:00:00Z'));
    t.sim.onMarket(aBarOf(BTC, '1h', '2026-03-06T21:00:00Z', '2026-03-06T22:00:00Z', [100, 101, 99, 100]));
    t.sim.onMarket(
      aBarOf(AAPL, '1d', '2026-03-06T05:00:00Z', '2026-03-07T05:00:00Z', [190.5, 191, 186, 189]),
    );
    expect(t.of('execution').map((e) => e.execution.clientOrderId)).toEqual(['dip']);
    expect(t.sim.earlySpanWork()).toBeUndefined();
  });
});

describe("earlySpanWork: a second sym's bar of the same close, processed first", () => {
  it('holds the AAPL DAY limit for its own bar, the MSFT bar of the same close matched first', () => {
    const MSFT = 'US_EQUITY_MSFT';
    const equity = { tickSize: D('0.01'), lotSize: D('1'), minSize: D('1'), settleAsset: 'USD' } as const;
    const t = aSim({
      fillModel: 'bar',
      instruments: [anInstrument(AAPL, equity), anInstrument(MSFT, equity)],
      startingBalances: { USD: D('100000') },
    });
    t.sim.onMarket(aBarOf(AAPL, '1d', '2026-03-05T05:00:00Z', '2026-03-06T05:00:00Z', [190, 192, 188, 191]));
    t.sim.onMarket(aBarOf(MSFT, '1d', '2026-03-05T05:00:00Z', '2026-03-06T05:00:00Z', [400, 401, 399, 400]));
    t.send(aLimit('dip', 'BUY', '10', '187.5', { sym: AAPL, timeInForce: 'DAY' }));
    t.sim.advanceTo(at('2026-03-06T05:00:00Z'));
    t.sim.onMarket(aBarOf(MSFT, '1d', '2026-03-06T05:00:00Z', '2026-03-07T05:00:00Z', [400, 401, 399, 400]));
    t.sim.onMarket(
      aBarOf(AAPL, '1d', '2026-03-06T05:00:00Z', '2026-03-07T05:00:00Z', [190.5, 191, 186, 189]),
    );
    // The MSFT bar moved the venue to the close; the AAPL expiry waits for the AAPL bar all the same.
    expect(t.of('execution').map((e) => e.execution.clientOrderId)).toEqual(['dip']);
    expect(t.sim.earlySpanWork()).toBeUndefined();
  });
});

describe('earlySpanWork: one sym on klines only', () => {
  it('counts nothing for a DAY order that expires inside the daily bar it is matched against', () => {
    const t = aaplAndBtc();
    t.sim.onMarket(aBarOf(AAPL, '1d', '2026-03-05T05:00:00Z', '2026-03-06T05:00:00Z', [190, 192, 188, 191]));
    t.send(aLimit('dip', 'BUY', '10', '180', { sym: AAPL, timeInForce: 'DAY' }));
    t.sim.advanceTo(at('2026-03-06T05:00:00Z'));
    t.sim.onMarket(
      aBarOf(AAPL, '1d', '2026-03-06T05:00:00Z', '2026-03-07T05:00:00Z', [190.5, 191, 186, 189]),
    );
    t.sim.onMarket(
      aBarOf(AAPL, '1d', '2026-03-07T05:00:00Z', '2026-03-08T05:00:00Z', [190.5, 191, 186, 189]),
    );
    // It met Friday's bar (not low enough), then expired at 16:00 New York, after the bar.
    expect(t.of('order').at(-1)?.order.orderState).toBe('CANCELLED');
    expect(t.sim.earlySpanWork()).toBeUndefined();
  });
});
