import { describe, expect, it } from 'vitest';
import { TrailingStopEmulator } from '../../../core/kernel/trailing-stop-emulator.ts';
import type { BarEvent, PlaceOrderIntent } from '../../../core/model/index.ts';
import { decimalOf, ZERO } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aFeedBar, BTC } from '../../kit/kernel-events.ts';

/**
 * Live: the kernel's clock is the wall clock (Date.now()), read again at every call. The emulator
 * notes when the kernel got the bar BEFORE the strategies get it; the strategy's trailing stop
 * placed in its onBar, in the same turn, is made a few ms later.
 */
describe('live (barReactionMs 0): a trailing stop placed on a bar close', () => {
  it('meets the next bar (its low 90 crosses the stop at 98)', () => {
    let wall = 0;
    const closedBars = new Map<string, BarEvent>();
    const released: string[] = [];
    const view = {
      now: () => wall,
      instrument: () => anInstrument(BTC),
      positionQty: () => ZERO,
      trades: new Map(),
      marks: new Map(),
      quotes: new Map(),
      closedBars,
    };
    const emulator = new TrailingStopEmulator<string>(
      view,
      { release: (_o, intent) => released.push(intent.ref), changed: () => {} },
      0, // live
    );
    const T = 1_700_000_040_000;
    const bar0 = aFeedBar(T, [100, 100, 100, 100, 1]);
    // bar 0 reaches the kernel 150 ms after its close (wall clock)
    wall = T + 60_000 + 150;
    emulator.onBar(bar0, false);
    closedBars.set(BTC, bar0);
    // the strategy's onBar reacts 3 ms later on the wall clock
    wall += 3;
    const intent = {
      kind: 'placeOrder',
      ref: 'ts1',
      sym: BTC,
      side: 'SELL',
      orderType: 'MARKET',
      timeInForce: 'GTC',
      positionSide: 'NONE',
      qty: decimalOf(1),
      reduceOnly: false,
      trailingStop: { offsetType: 'PRICE', offset: decimalOf(2), triggerOn: 'last' },
    } as unknown as PlaceOrderIntent;
    expect(emulator.accept('owner', 's', intent)).toBeUndefined();
    // bar 1 (opened at bar 0's close, before the stop) trades down to 90
    wall = T + 120_000 + 150;
    emulator.onBar(aFeedBar(T + 60_000, [100, 100, 90, 95, 1]), false);
    expect(released).toEqual(['ts1']);
  });

  it('a stop made in a later turn (a timer, a fill) after the cutoff sits the next bar out', () => {
    let wall = 0;
    const closedBars = new Map<string, BarEvent>();
    const released: string[] = [];
    const emulator = new TrailingStopEmulator<string>(
      {
        now: () => wall,
        instrument: () => anInstrument(BTC),
        positionQty: () => ZERO,
        trades: new Map(),
        marks: new Map(),
        quotes: new Map(),
        closedBars,
      },
      { release: (_o, intent) => released.push(intent.ref), changed: () => {} },
      0,
    );
    const T = 1_700_000_040_000;
    const bar0 = aFeedBar(T, [100, 100, 100, 100, 1]);
    wall = T + 60_000 + 150;
    emulator.onBar(bar0, false);
    closedBars.set(BTC, bar0);
    // a timer 30 s into bar 1
    wall = T + 90_000;
    emulator.beginTurn();
    expect(emulator.accept('owner', 's', stopIntent('ts2'))).toBeUndefined();
    wall = T + 120_000 + 150;
    emulator.onBar(aFeedBar(T + 60_000, [100, 100, 90, 95, 1]), false);
    expect(released).toEqual([]);
  });
});

/** An emulator on a wall clock the test moves, with no reaction allowance (live, default paper). */
function liveRig() {
  const rig = { wall: 0, released: [] as string[] };
  const closedBars = new Map<string, BarEvent>();
  const emulator = new TrailingStopEmulator<string>(
    {
      now: () => rig.wall,
      instrument: () => anInstrument(BTC),
      positionQty: () => ZERO,
      trades: new Map(),
      marks: new Map(),
      quotes: new Map(),
      closedBars,
    },
    { release: (_o, intent) => rig.released.push(intent.ref), changed: () => {} },
    0,
  );
  const bar = (at: number, openTime: number, ohlc: [number, number, number, number]) => {
    rig.wall = at;
    emulator.beginTurn();
    const event = aFeedBar(openTime, [...ohlc, 1]);
    emulator.onBar(event, false);
    closedBars.set(BTC, event);
  };
  return { rig, emulator, bar };
}

// The entry sent on bar 0's close fills at bar 1's open T+60s (the venue stamps it then) and is
// reported as the venue matches bar 1, at its close T+120s. A stop placed on that fill did not
// exist while bar 1 traded; it meets bar 2 from its open, whichever of the report and bar 1 reached
// the kernel first (backtests: test/core/kernel/trailing-stop-placed-on-fill-bars.test.ts).
describe('live (barReactionMs 0): a trailing stop placed on a fill the venue reported with a bar', () => {
  const T = 1_700_000_040_000;
  for (const reportFirst of [true, false])
    it(`sits out the bar that made the fill and meets the next one (report ${reportFirst ? 'before' : 'after'} the bar)`, () => {
      const { rig, emulator, bar } = liveRig();
      bar(T + 60_150, T, [100, 100, 100, 100]);
      const placeOnFill = () => {
        emulator.beginTurn();
        emulator.onUserEvent(T + 60_000);
        expect(emulator.accept('owner', 's', stopIntent('ts1'))).toBeUndefined();
      };
      rig.wall = T + 120_140;
      if (reportFirst) placeOnFill();
      bar(T + 120_150, T + 60_000, [100, 100, 90, 95]);
      expect(rig.released).toEqual([]);
      rig.wall = T + 120_153;
      if (!reportFirst) placeOnFill();
      bar(T + 180_150, T + 120_000, [95, 96, 90, 91]);
      expect(rig.released).toEqual(['ts1']);
    });

  it('a stop placed on a report of something inside the bar in progress sits that bar out', () => {
    const { rig, emulator, bar } = liveRig();
    bar(T + 60_150, T, [100, 100, 100, 100]);
    // an order acknowledged 30 s into bar 1
    rig.wall = T + 90_050;
    emulator.beginTurn();
    emulator.onUserEvent(T + 90_000);
    expect(emulator.accept('owner', 's', stopIntent('ts1'))).toBeUndefined();
    bar(T + 120_150, T + 60_000, [100, 100, 90, 95]);
    expect(rig.released).toEqual([]);
  });
});

function stopIntent(ref: string): PlaceOrderIntent {
  return {
    kind: 'placeOrder',
    ref,
    sym: BTC,
    side: 'SELL',
    orderType: 'MARKET',
    timeInForce: 'GTC',
    positionSide: 'NONE',
    qty: decimalOf(1),
    reduceOnly: false,
    trailingStop: { offsetType: 'PRICE', offset: decimalOf(2), triggerOn: 'last' },
  } as unknown as PlaceOrderIntent;
}
