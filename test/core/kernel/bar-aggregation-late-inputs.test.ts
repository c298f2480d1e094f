import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { BarEvent, BarInterval } from '../../../core/model/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, aQuote, aTrade, BTC } from '../../kit/kernel-events.ts';

/** A strategy collecting the bars of BTC of one interval. */
function collector(bars: BarEvent[], interval: BarInterval) {
  return defineStrategy({
    name: 'late-collector',
    params: z.object({}),
    onStart: (ctx) => ctx.watchBars(BTC, interval),
    onBar: (_ctx, bar) => {
      bars.push(bar);
    },
  });
}

const ohlc = (b: BarEvent) => [b.openTime, b.open, b.high, b.low, b.close, b.volume];

describe('bars aggregated from trades: a trade received after its bar closed', () => {
  it('is left out and counted, never opening a second bar of the same minute', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars, '1m') }]);
    kernel.push(aTrade(1_000, 100));
    kernel.push(aQuote(60_005, 99));
    // Stamped inside minute 0, received after the quote closed it.
    kernel.push({ ...aTrade(59_990, 105), recvTs: 60_020 });
    kernel.push(aTrade(61_000, 101));
    kernel.push(aTrade(121_000, 102));
    expect(bars.map(ohlc)).toEqual([
      [0, 100, 100, 100, 100, 1],
      [60_000, 101, 101, 101, 101, 1],
    ]);
    expect(kernel.lateBarInputs()).toEqual([
      { sym: BTC, interval: '1m', from: 'trade', reason: 'late', count: 1, firstTs: 59_990 },
    ]);
  });

  it('leaves out a trade of a minute before the forming bar without closing that bar early', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars, '1m') }]);
    kernel.push(aTrade(1_000, 100));
    kernel.push(aTrade(130_000, 110));
    // Minute 1 had no bar yet, but minute 2 is forming: delivering minute 1 now would come after minute 0 and close minute 2.
    kernel.push(aTrade(90_000, 90));
    kernel.push(aTrade(150_000, 111));
    kernel.advanceTime(180_000);
    expect(bars.map(ohlc)).toEqual([
      [0, 100, 100, 100, 100, 1],
      [120_000, 110, 111, 110, 111, 2],
    ]);
    expect(kernel.lateBarInputs()).toEqual([
      { sym: BTC, interval: '1m', from: 'trade', reason: 'late', count: 1, firstTs: 90_000 },
    ]);
  });

  it('counts nothing when every trade comes in time', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars, '1m') }]);
    kernel.push(aTrade(1_000, 100));
    kernel.push(aTrade(61_000, 101));
    kernel.advanceTime(120_000);
    expect(bars).toHaveLength(2);
    expect(kernel.lateBarInputs()).toEqual([]);
  });

  it('property: trades in any arrival order give one bar per minute, in order, each holding what came in time', () => {
    const arrivals = fc.array(
      fc.record({
        ts: fc.integer({ min: 0, max: 600_000 }),
        price: fc.integer({ min: 1, max: 1000 }),
        qty: fc.integer({ min: 1, max: 5 }),
      }),
      { minLength: 1, maxLength: 60 },
    );
    fc.assert(
      fc.property(arrivals, (list) => {
        const bars: BarEvent[] = [];
        const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars, '1m') }]);
        for (const t of list) kernel.push(aTrade(t.ts, t.price, t.qty));
        kernel.advanceTime(Number.MAX_SAFE_INTEGER);
        const opens = bars.map((b) => b.openTime);
        for (let i = 1; i < opens.length; i++) expect(opens[i]).toBeGreaterThan(opens[i - 1] as number);
        for (const bar of bars) expect(bar.openTime % 60_000).toBe(0);
        const late = kernel.lateBarInputs()[0]?.count ?? 0;
        const traded = list.reduce((sum, t) => sum + t.qty, 0);
        const barred = bars.reduce((sum, b) => sum + b.volume, 0);
        // Each trade is in exactly one bar or counted late.
        expect(barred <= traded).toBe(true);
        expect(late === 0).toBe(barred === traded);
        expect(late <= list.length).toBe(true);
      }),
    );
  });
});

describe('bars aggregated from finer feed bars: a 1m bar received after its 5m bar closed', () => {
  it('is left out and counted, never delivering a second 5m bar of the same period', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars, '5m') }]);
    for (let i = 0; i < 4; i++) kernel.push(aFeedBar(i * 60_000, [100, 101, 99, 100, 1]));
    // The 1m bar [4m, 5m) is late: the 1m bar [5m, 6m) comes first and closes [0, 5m) without it.
    kernel.push(aFeedBar(300_000, [100, 102, 100, 101, 1]));
    kernel.push({ ...aFeedBar(240_000, [100, 120, 80, 110, 1]), ts: 360_010, recvTs: 360_010 });
    for (let i = 6; i < 10; i++) kernel.push(aFeedBar(i * 60_000, [101, 101, 101, 101, 1]));
    expect(bars.map(ohlc)).toEqual([
      [0, 100, 101, 99, 100, 4],
      [300_000, 100, 102, 100, 101, 5],
    ]);
    expect(kernel.lateBarInputs()).toEqual([
      { sym: BTC, interval: '5m', from: '1m', reason: 'late', count: 1, firstTs: 360_010 },
    ]);
  });
});
