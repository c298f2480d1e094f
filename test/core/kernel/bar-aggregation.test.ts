import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { BarEvent, BarInterval } from '../../../core/model/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, aQuote, aTrade, BTC, ETH } from '../../kit/kernel-events.ts';

/** A strategy collecting the 1m bars of BTC, by hook or by stream. */
function barCollector(bars: BarEvent[], style: 'hook' | 'stream') {
  return defineStrategy({
    name: 'bar-collector',
    params: z.object({}),
    onStart: (ctx) => (style === 'hook' ? ctx.watchBars(BTC, '1m') : undefined),
    onBar: (_ctx, bar) => {
      if (style === 'hook') bars.push(bar);
    },
    setup: (ctx) => {
      if (style === 'stream') ctx.bars(BTC, '1m').subscribe((bar) => bars.push(bar));
      return undefined;
    },
  });
}

describe('bars aggregated from trades', () => {
  it('builds 1m OHLCV bars from trades and closes each when time passes its end', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: barCollector(bars, 'hook') }]);
    kernel.push(aTrade(60_000, 100, 1));
    kernel.push(aTrade(70_000, 103, 2));
    kernel.push(aTrade(80_000, 99, 0.5));
    kernel.push(aTrade(119_999, 101, 1));
    expect(bars).toEqual([]);
    kernel.push(aQuote(120_000, 100));
    expect(bars).toEqual([
      {
        kind: 'bar',
        sym: BTC,
        ts: 120_000,
        recvTs: 120_000,
        interval: '1m',
        openTime: 60_000,
        open: 100,
        high: 103,
        low: 99,
        close: 101,
        volume: 4.5,
        closed: true,
      },
    ]);
    expect(kernel.state.bar(BTC, '1m')?.close).toBe(101);
  });

  it('skips intervals without trades and ignores trades of other syms', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: barCollector(bars, 'stream') }]);
    kernel.push(aTrade(0, 10));
    kernel.push(aTrade(30_000, 500, 1, ETH));
    kernel.push(aTrade(185_000, 12));
    kernel.push(aTrade(250_000, 13));
    expect(bars.map((b) => [b.openTime, b.open, b.close])).toEqual([
      [0, 10, 10],
      [180_000, 12, 12],
    ]);
  });

  it('property: aggregated bars equal a per-minute grouping of the trades', () => {
    const trades = fc
      .array(
        fc.record({
          gap: fc.integer({ min: 0, max: 90_000 }),
          price: fc.integer({ min: 1, max: 1000 }),
          qty: fc.integer({ min: 1, max: 5 }),
        }),
        { minLength: 1, maxLength: 60 },
      )
      .map((rows) => {
        let ts = 0;
        return rows.map((r) => {
          ts += r.gap;
          return aTrade(ts, r.price, r.qty);
        });
      });
    fc.assert(
      fc.property(trades, (list) => {
        const bars: BarEvent[] = [];
        const { kernel } = aKernelRig([{ id: 'b', strategy: barCollector(bars, 'hook') }]);
        for (const t of list) kernel.push(t);
        kernel.advanceTime(Number.MAX_SAFE_INTEGER);
        const groups = new Map<number, typeof list>();
        for (const t of list) {
          const minute = t.ts - (t.ts % 60_000);
          groups.set(minute, [...(groups.get(minute) ?? []), t]);
        }
        const expected = [...groups.entries()].map(([openTime, g]) => ({
          openTime,
          open: g[0]?.price,
          high: Math.max(...g.map((t) => t.price)),
          low: Math.min(...g.map((t) => t.price)),
          close: g[g.length - 1]?.price,
          volume: g.reduce((s, t) => s + t.qty, 0),
        }));
        expect(
          bars.map(({ openTime, open, high, low, close, volume }) => ({
            openTime,
            open,
            high,
            low,
            close,
            volume,
          })),
        ).toEqual(expected);
      }),
    );
  });

  it('passes the feed’s own KLINE bars through instead, never both', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: barCollector(bars, 'stream') }]);
    kernel.push(aTrade(1_000, 100));
    kernel.push(aFeedBar(0, [100, 105, 95, 101, 7]));
    kernel.push(aTrade(61_000, 102));
    kernel.push(aTrade(125_000, 103));
    kernel.push(aFeedBar(60_000, [101, 102, 100, 102, 3]));
    expect(bars.map((b) => [b.openTime, b.high, b.volume])).toEqual([
      [0, 105, 7],
      [60_000, 102, 3],
    ]);
  });
});

/** A strategy collecting the bars of BTC of one interval. */
function intervalCollector(bars: BarEvent[], interval: BarInterval) {
  return defineStrategy({
    name: 'interval-collector',
    params: z.object({}),
    onStart: (ctx) => ctx.watchBars(BTC, interval),
    onBar: (_ctx, bar) => {
      bars.push(bar);
    },
  });
}

/** A closed 5m feed bar opening at `openTime`. */
function aFiveMinuteFeedBar(openTime: number, ohlcv: readonly [number, number, number, number, number]) {
  return {
    ...aFeedBar(openTime, ohlcv),
    ts: openTime + 300_000,
    recvTs: openTime + 300_000,
    interval: '5m' as const,
  };
}

/** Six 1m OHLCV bars: the first five make the 5m bar [0, 5m) of open 100, high 104, low 97, close 100, volume 15. */
const minutes: readonly [number, number, number, number, number][] = [
  [100, 102, 99, 101, 1],
  [101, 104, 100, 103, 2],
  [103, 103, 97, 98, 3],
  [98, 100, 98, 99, 4],
  [99, 101, 99, 100, 5],
  [100, 100, 96, 97, 6],
];

describe('bars aggregated from finer feed bars', () => {
  it('builds 5m bars from 1m klines and closes each with the 1m bar that ends it', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: intervalCollector(bars, '5m') }]);
    for (const [i, ohlcv] of minutes.slice(0, 4).entries()) kernel.push(aFeedBar(i * 60_000, ohlcv));
    expect(bars).toEqual([]);
    kernel.push(aFeedBar(240_000, minutes[4]!));
    // [0, 5m): open 100, high 104, low 97, close 100, volume 1 + 2 + 3 + 4 + 5
    expect(bars).toEqual([
      {
        kind: 'bar',
        sym: BTC,
        ts: 300_000,
        recvTs: 300_000,
        interval: '5m',
        openTime: 0,
        open: 100,
        high: 104,
        low: 97,
        close: 100,
        volume: 15,
        closed: true,
      },
    ]);
    kernel.push(aFeedBar(300_000, minutes[5]!));
    expect(bars).toHaveLength(1);
    expect(kernel.state.bar(BTC, '5m')?.close).toBe(100);
  });

  it('closes a coarser bar whose last finer bar is missing when a later one arrives, and ignores trades', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: intervalCollector(bars, '5m') }]);
    kernel.push(aFeedBar(0, [100, 101, 99, 100, 1]));
    kernel.push(aTrade(70_000, 500, 9));
    kernel.push(aFeedBar(60_000, [100, 103, 100, 102, 2]));
    kernel.push(aFeedBar(360_000, [90, 91, 89, 90, 3]));
    expect(bars.map((b) => [b.openTime, b.open, b.high, b.low, b.close, b.volume])).toEqual([
      [0, 100, 103, 99, 102, 3],
    ]);
  });

  it('builds whole 5m bars from 1m klines that arrive after their close, with other events in between', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: intervalCollector(bars, '5m') }]);
    for (const [i, ohlcv] of minutes.entries()) {
      const end = (i + 1) * 60_000;
      // A quote just past the minute's end, then the kline received 6 ms after its close.
      kernel.push(aQuote(end + 3, 100));
      kernel.push({ ...aFeedBar(i * 60_000, ohlcv), ts: end + 6, recvTs: end + 6 });
    }
    expect(bars.map((b) => [b.openTime, b.open, b.high, b.low, b.close, b.volume])).toEqual([
      [0, 100, 104, 97, 100, 15],
    ]);
  });

  it('delivers one bar per period when the first feed bar comes after trades closed an aggregated one', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: intervalCollector(bars, '1m') }]);
    kernel.push(aTrade(1_000, 100));
    kernel.push(aTrade(59_000, 101));
    kernel.push(aTrade(60_002, 102));
    kernel.push({ ...aFeedBar(0, [100, 101, 100, 101, 2]), ts: 60_006, recvTs: 60_006 });
    kernel.push({ ...aFeedBar(60_000, [102, 103, 102, 103, 1]), ts: 120_006, recvTs: 120_006 });
    expect(bars.map((b) => b.openTime)).toEqual([0, 60_000]);
  });

  it("uses the feed's own 5m bars when it has them, never both", () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: intervalCollector(bars, '5m') }]);
    for (let i = 0; i < 10; i++) kernel.push(aFeedBar(i * 60_000, [100, 101, 99, 100, 1]));
    kernel.push(aFiveMinuteFeedBar(600_000, [7, 8, 6, 7, 50]));
    for (let i = 10; i < 20; i++) kernel.push(aFeedBar(i * 60_000, [100, 101, 99, 100, 1]));
    kernel.push(aFiveMinuteFeedBar(900_000, [9, 9, 9, 9, 50]));
    expect(bars.map((b) => [b.openTime, b.volume])).toEqual([
      [0, 5],
      [300_000, 5],
      [600_000, 50],
      [900_000, 50],
    ]);
  });

  it("delivers the bar 1m klines were building when the feed's own 5m bars start at a later period", () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: intervalCollector(bars, '5m') }]);
    // The recording's 1m klines stop after [8m, 9m); its 5m klines start with [10m, 15m), nothing in between.
    for (let i = 0; i < 9; i++) kernel.push(aFeedBar(i * 60_000, [100, 101, 99, 100, 1]));
    kernel.push(aFiveMinuteFeedBar(600_000, [7, 8, 6, 7, 50]));
    kernel.push(aFiveMinuteFeedBar(900_000, [9, 9, 9, 9, 50]));
    expect(bars.map((b) => [b.openTime, b.volume])).toEqual([
      [0, 5],
      [300_000, 4],
      [600_000, 50],
      [900_000, 50],
    ]);
    expect(kernel.lateBarInputs()).toEqual([]);
  });

  it('delivers the bar 1m klines were building after a forming 5m feed bar of a later period, once', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: intervalCollector(bars, '5m') }]);
    for (let i = 0; i < 9; i++) kernel.push(aFeedBar(i * 60_000, [100, 101, 99, 100, 1]));
    // The 5m feed's first push: the bar [10m, 15m) still forming, before [5m, 10m) is due.
    kernel.push({
      ...aFiveMinuteFeedBar(600_000, [7, 7, 7, 7, 1]),
      ts: 630_000,
      recvTs: 630_000,
      closed: false,
    });
    // The same bar closed: [5m, 10m) was due at 11m and closes first.
    kernel.push(aFiveMinuteFeedBar(600_000, [7, 8, 6, 7, 50]));
    kernel.push(aFiveMinuteFeedBar(900_000, [9, 9, 9, 9, 50]));
    expect(bars.map((b) => [b.openTime, b.volume])).toEqual([
      [0, 5],
      [300_000, 4],
      [600_000, 50],
      [900_000, 50],
    ]);
  });

  it('finishes the bar 1m klines were building with its last 1m kline received after the 5m feed started', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: intervalCollector(bars, '5m') }]);
    for (let i = 0; i < 9; i++) kernel.push(aFeedBar(i * 60_000, [100, 101, 99, 100, 1]));
    kernel.push({
      ...aFiveMinuteFeedBar(600_000, [7, 7, 7, 7, 1]),
      ts: 600_010,
      recvTs: 600_010,
      closed: false,
    });
    kernel.push({ ...aFeedBar(540_000, [100, 130, 99, 120, 1]), ts: 600_050, recvTs: 600_050 });
    // 1m klines go on, but the 5m bars are the feed's from here.
    kernel.push(aFeedBar(600_000, [100, 101, 99, 100, 1]));
    kernel.push(aFiveMinuteFeedBar(600_000, [7, 8, 6, 7, 50]));
    expect(bars.map((b) => [b.openTime, b.high, b.close, b.volume])).toEqual([
      [0, 101, 100, 5],
      [300_000, 130, 120, 5],
      [600_000, 8, 7, 50],
    ]);
    expect(kernel.lateBarInputs()).toEqual([]);
  });

  it('property: 1m klines giving way to 5m klines at any minute give one 5m bar per period, in order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 1, max: 4 }),
        (minutes, skipped, fed) => {
          const bars: BarEvent[] = [];
          const { kernel } = aKernelRig([{ id: 'b', strategy: intervalCollector(bars, '5m') }]);
          for (let i = 0; i < minutes; i++) kernel.push(aFeedBar(i * 60_000, [100, 101, 99, 100, 1]));
          const firstFed = Math.ceil(minutes / 5) + skipped;
          for (let p = firstFed; p < firstFed + fed; p++)
            kernel.push(aFiveMinuteFeedBar(p * 300_000, [7, 8, 6, 7, 50]));
          kernel.advanceTime(Number.MAX_SAFE_INTEGER);
          const built = Array.from({ length: Math.ceil(minutes / 5) }, (_, p) => [
            p * 300_000,
            Math.min(5, minutes - p * 5),
          ]);
          const feed = Array.from({ length: fed }, (_, p) => [(firstFed + p) * 300_000, 50]);
          expect(bars.map((b) => [b.openTime, b.volume])).toEqual([...built, ...feed]);
          expect(kernel.lateBarInputs()).toEqual([]);
        },
      ),
    );
  });

  it('replaces the bar 1m klines were building by the feed’s own 5m bar of the same period', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: intervalCollector(bars, '5m') }]);
    for (let i = 0; i < 8; i++) kernel.push(aFeedBar(i * 60_000, [100, 101, 99, 100, 1]));
    kernel.push(aFiveMinuteFeedBar(300_000, [7, 8, 6, 7, 50]));
    kernel.push(aFeedBar(480_000, [100, 101, 99, 100, 1]));
    kernel.push(aFiveMinuteFeedBar(600_000, [9, 9, 9, 9, 50]));
    kernel.advanceTime(Number.MAX_SAFE_INTEGER);
    expect(bars.map((b) => [b.openTime, b.volume])).toEqual([
      [0, 5],
      [300_000, 50],
      [600_000, 50],
    ]);
  });

  it('property: 15m bars from 1m klines equal a per-quarter-hour grouping of them', () => {
    const minute = fc.tuple(
      fc.integer({ min: 1, max: 200 }),
      fc.integer({ min: 0, max: 20 }),
      fc.integer({ min: 0, max: 20 }),
      fc.integer({ min: 0, max: 20 }),
      fc.integer({ min: 1, max: 9 }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), minute), { minLength: 1, maxLength: 80 }), (drawn) => {
        const bars: BarEvent[] = [];
        const { kernel } = aKernelRig([{ id: 'b', strategy: intervalCollector(bars, '15m') }]);
        const fed: BarEvent[] = [];
        drawn.forEach(([present, [base, up, down, toClose, volume]], i) => {
          if (!present) return;
          const low = base;
          const high = base + up + down;
          const bar = aFeedBar(i * 60_000, [low + up, high, low, Math.min(high, low + toClose), volume]);
          fed.push(bar);
          kernel.push(bar);
        });
        kernel.advanceTime(drawn.length * 60_000 + 15 * 60_000);
        const groups = new Map<number, BarEvent[]>();
        for (const bar of fed) {
          const key = bar.openTime - (bar.openTime % 900_000);
          groups.set(key, [...(groups.get(key) ?? []), bar]);
        }
        const expected = [...groups].map(([openTime, group]) => [
          openTime,
          group[0]!.open,
          Math.max(...group.map((b) => b.high)),
          Math.min(...group.map((b) => b.low)),
          group.at(-1)!.close,
          group.reduce((sum, b) => sum + b.volume, 0),
        ]);
        expect(bars.map((b) => [b.openTime, b.open, b.high, b.low, b.close, b.volume])).toEqual(expected);
      }),
    );
  });
});
