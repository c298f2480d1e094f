import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { BarEvent, BarInterval, KeelEvent } from '../../../core/model/index.ts';
import { BAR_INTERVAL_MS } from '../../../core/model/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, aTrade, BTC } from '../../kit/kernel-events.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

type Ohlcv = readonly [number, number, number, number, number];

/** A strategy collecting the bars of BTC of one interval. */
function collector(bars: BarEvent[], interval: BarInterval) {
  return defineStrategy({
    name: 'stop-collector',
    params: z.object({}),
    onStart: (ctx) => ctx.watchBars(BTC, interval),
    onBar: (_ctx, bar) => {
      bars.push(bar);
    },
  });
}

/** A closed kline of `interval` opening at `openTime`, received `lag` ms after its close. */
function kline(interval: BarInterval, openTime: number, ohlcv: Ohlcv, lag: number): BarEvent {
  const ts = openTime + BAR_INTERVAL_MS[interval] + lag;
  return { ...aFeedBar(openTime, ohlcv), interval, ts, recvTs: ts };
}

const ohlcv = (b: BarEvent) => [b.openTime, b.open, b.high, b.low, b.close, b.volume];

/** Minute `m`'s 1m OHLCV: open 100 + m, high + 1, low - 1, close + 0.5, volume 2. */
const minute = (m: number): Ohlcv => [100 + m, 101 + m, 99 + m, 100.5 + m, 2];

/** Events in receive order (stable at equal times). */
const byTime = (events: readonly KeelEvent[]) => [...events].sort((a, b) => a.ts - b.ts);

describe('a recording of 1h klines that ends while its 1m klines go on (a backtest over a 1h CSV and a 1m recording)', () => {
  it('delivers the feed’s 1h bars while they come, then 1h bars built from the 1m klines, one per hour', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars, '1h') }]);
    const events: BarEvent[] = [];
    for (let m = 0; m < 240; m++) events.push(kline('1m', m * MIN, minute(m), 6));
    // The 1h klines of hours 0 and 1 only, received 5 ms after their close (before the 1m kline ending them).
    events.push(kline('1h', 0, [1, 2, 0.5, 1.5, 999], 5), kline('1h', HOUR, [3, 4, 2.5, 3.5, 999], 5));
    for (const e of byTime(events)) kernel.push(e);
    // Hours 2 and 3 from the 1m klines: open 100 + 60h, high 101 + last minute, low 99 + first, volume 120.
    expect(bars.map(ohlcv)).toEqual([
      [0, 1, 2, 0.5, 1.5, 999],
      [HOUR, 3, 4, 2.5, 3.5, 999],
      [2 * HOUR, 220, 280, 219, 279.5, 120],
      [3 * HOUR, 280, 340, 279, 339.5, 120],
    ]);
    expect(kernel.lateBarInputs()).toEqual([]);
  });

  it('property: 1h klines for any first hours, 1m klines throughout, give the feed’s bars then the built ones, one per hour', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 9 }), (fedHours, lag) => {
        const bars: BarEvent[] = [];
        const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars, '1h') }]);
        const events: BarEvent[] = [];
        for (let m = 0; m < 6 * 60; m++) events.push(kline('1m', m * MIN, minute(m), 6));
        for (let h = 0; h < fedHours; h++) events.push(kline('1h', h * HOUR, [h, h + 1, h, h, 7], lag));
        for (const e of byTime(events)) kernel.push(e);
        kernel.advanceTime(Number.MAX_SAFE_INTEGER);
        // The first 1h kline received after the 1m kline ending its hour finds that hour built and
        // delivered already (nothing said yet that the feed has 1h bars); later ones are awaited.
        const expected = Array.from({ length: 6 }, (_, h) =>
          h < fedHours && (h > 0 || lag < 6)
            ? [h * HOUR, h, h + 1, h, h, 7]
            : [h * HOUR, 100 + 60 * h, 160 + 60 * h, 99 + 60 * h, 159.5 + 60 * h, 120],
        );
        expect(bars.map(ohlcv)).toEqual(expected);
        expect(kernel.lateBarInputs()).toEqual([]);
      }),
    );
  });
});

describe('a feed whose 1m klines stop while its trades go on', () => {
  it('builds the 1m bars from the trades once no kline came for a minute, without a second bar of a kline’s minute', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars, '1m') }]);
    const events: KeelEvent[] = [];
    // Two trades a minute, at :10 and :50, for minutes 0..5; klines of minutes 0..2 only, received 6 ms after their close.
    for (let m = 0; m < 6; m++)
      events.push(aTrade(m * MIN + 10_000, 100 + m, 1), aTrade(m * MIN + 50_000, 100.5 + m, 1));
    for (let m = 0; m < 3; m++) events.push(kline('1m', m * MIN, [100 + m, 110, 90, 100.5 + m, 5], 6));
    for (const e of byTime(events)) kernel.push(e);
    kernel.advanceTime(Number.MAX_SAFE_INTEGER);
    expect(bars.map(ohlcv)).toEqual([
      [0, 100, 110, 90, 100.5, 5],
      [MIN, 101, 110, 90, 101.5, 5],
      [2 * MIN, 102, 110, 90, 102.5, 5],
      [3 * MIN, 103, 103.5, 103, 103.5, 2],
      [4 * MIN, 104, 104.5, 104, 104.5, 2],
      [5 * MIN, 105, 105.5, 105, 105.5, 2],
    ]);
    expect(kernel.lateBarInputs()).toEqual([]);
  });
});
