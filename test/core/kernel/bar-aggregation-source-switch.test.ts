import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { BarEvent, BarInterval, KeelEvent } from '../../../core/model/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, aTrade, BTC } from '../../kit/kernel-events.ts';

/** A strategy collecting the bars of BTC of one interval. */
function collector(bars: BarEvent[], interval: BarInterval) {
  return defineStrategy({
    name: 'switch-collector',
    params: z.object({}),
    onStart: (ctx) => ctx.watchBars(BTC, interval),
    onBar: (_ctx, bar) => {
      bars.push(bar);
    },
  });
}

type Ohlcv = readonly [number, number, number, number, number];

/** A closed 5m kline opening at `openTime`, received 6 ms after its close. */
function aFiveMinuteKline(openTime: number, ohlcv: Ohlcv): BarEvent {
  const ts = openTime + 300_006;
  return { ...aFeedBar(openTime, ohlcv), interval: '5m', ts, recvTs: ts };
}

/** A closed 1m kline opening at `openTime`, received 6 ms after its close. */
function aMinuteKline(openTime: number, ohlcv: Ohlcv): BarEvent {
  const ts = openTime + 60_006;
  return { ...aFeedBar(openTime, ohlcv), ts, recvTs: ts };
}

const ohlcv = (b: BarEvent) => [b.openTime, b.open, b.high, b.low, b.close, b.volume];

/** OHLCV of bars grouped by the coarser period they fall in, in order. */
function grouped(parts: readonly BarEvent[], ms: number): number[][] {
  const groups = new Map<number, BarEvent[]>();
  for (const p of parts) {
    const key = p.openTime - (p.openTime % ms);
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return [...groups].map(([openTime, g]) => [
    openTime,
    g[0]!.open,
    Math.max(...g.map((b) => b.high)),
    Math.min(...g.map((b) => b.low)),
    g.at(-1)!.close,
    g.reduce((sum, b) => sum + b.volume, 0),
  ]);
}

/** Random 1m OHLCV, consistent (low <= open, close <= high), for `n` minutes. */
const minuteData = (n: number) =>
  fc.array(
    fc
      .tuple(
        fc.integer({ min: 50, max: 150 }),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
      )
      .map(([low, up, toOpen, toClose, volume]): Ohlcv => {
        const high = low + up;
        return [Math.min(high, low + toOpen), high, low, Math.min(high, low + toClose), volume];
      }),
    { minLength: n, maxLength: n },
  );

/** The 5m kline of minutes `[5p, 5p + 5)`. */
function fiveOf(minutes: readonly Ohlcv[], p: number): BarEvent {
  const part = minutes.slice(p * 5, p * 5 + 5);
  return aFiveMinuteKline(p * 300_000, [
    part[0]![0],
    Math.max(...part.map((m) => m[1])),
    Math.min(...part.map((m) => m[2])),
    part.at(-1)![3],
    part.reduce((sum, m) => sum + m[4], 0),
  ]);
}

/** Events in receive order; `tie` breaks equal times. */
function byTime(events: readonly { event: KeelEvent; tie: number }[]): KeelEvent[] {
  return [...events].sort((a, b) => a.event.ts - b.event.ts || a.tie - b.tie).map((e) => e.event);
}

describe('bars aggregated from finer klines when the feed changes their interval', () => {
  it('goes on building 15m bars from 5m klines once the 1m klines stop', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars, '15m') }]);
    for (let i = 0; i < 5; i++) kernel.push(aMinuteKline(i * 60_000, [100, 101, 99, 100, 1]));
    for (let p = 1; p < 6; p++) kernel.push(aFiveMinuteKline(p * 300_000, [100, 110 + p, 90, 105, 50]));
    kernel.advanceTime(Number.MAX_SAFE_INTEGER);
    expect(bars.map(ohlcv)).toEqual([
      [0, 100, 112, 90, 105, 105],
      [900_000, 100, 115, 90, 105, 150],
    ]);
    expect(kernel.lateBarInputs()).toEqual([]);
  });

  it('counts a 5m kline that overlaps the last 1m klines and is left out', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars, '15m') }]);
    // 1m klines of [0, 7m), then 5m klines from [5m, 10m): that one holds 1m bars already in the bar.
    for (let i = 0; i < 7; i++) kernel.push(aMinuteKline(i * 60_000, [100, 101, 99, 100, 1]));
    kernel.push(aFiveMinuteKline(300_000, [100, 120, 80, 105, 50]));
    kernel.push(aFiveMinuteKline(600_000, [105, 106, 104, 104, 50]));
    kernel.advanceTime(Number.MAX_SAFE_INTEGER);
    expect(bars.map(ohlcv)).toEqual([[0, 100, 106, 99, 104, 57]]);
    expect(kernel.lateBarInputs()).toEqual([
      { sym: BTC, interval: '15m', from: '5m', reason: 'overlap', count: 1, firstTs: 600_006 },
    ]);
  });

  it('property: 1m klines then 5m klines from any later period give 15m bars of what was received', () => {
    fc.assert(
      fc.property(
        minuteData(60),
        fc.integer({ min: 1, max: 59 }),
        fc.integer({ min: 0, max: 3 }),
        (minutes, stop, gap) => {
          const bars: BarEvent[] = [];
          const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars, '15m') }]);
          const ones = minutes.slice(0, stop).map((m, i) => aMinuteKline(i * 60_000, m));
          const fives: BarEvent[] = [];
          for (let p = Math.ceil(stop / 5) + gap; p < 12; p++) fives.push(fiveOf(minutes, p));
          for (const e of [...ones, ...fives]) kernel.push(e);
          kernel.advanceTime(Number.MAX_SAFE_INTEGER);
          expect(bars.map(ohlcv)).toEqual(grouped([...ones, ...fives], 900_000));
          expect(kernel.lateBarInputs()).toEqual([]);
        },
      ),
    );
  });

  it('property: 1m and 5m klines side by side, in any order at equal times, give 15m bars of the 1m klines', () => {
    fc.assert(
      fc.property(
        minuteData(45),
        fc.integer({ min: 0, max: 8 }),
        fc.array(fc.integer(), { minLength: 54, maxLength: 54 }),
        (minutes, firstFive, ties) => {
          const bars: BarEvent[] = [];
          const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars, '15m') }]);
          const ones = minutes.map((m, i) => aMinuteKline(i * 60_000, m));
          const events = ones.map((event, i) => ({ event, tie: ties[i]! }));
          for (let p = firstFive; p < 9; p++) events.push({ event: fiveOf(minutes, p), tie: ties[45 + p]! });
          for (const e of byTime(events)) kernel.push(e);
          kernel.advanceTime(Number.MAX_SAFE_INTEGER);
          expect(bars.map(ohlcv)).toEqual(grouped(ones, 900_000));
          expect(kernel.lateBarInputs()).toEqual([]);
        },
      ),
    );
  });
});

describe('bars aggregated from trades when the feed starts sending finer klines mid-bar', () => {
  it('keeps the trades of the minutes before the first kline', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars, '5m') }]);
    kernel.push(aTrade(10_000, 100, 1));
    kernel.push(aTrade(70_000, 110, 2));
    kernel.push(aTrade(130_000, 90, 3));
    kernel.push(aMinuteKline(180_000, [95, 96, 94, 95, 4]));
    kernel.push(aMinuteKline(240_000, [95, 97, 95, 96, 5]));
    expect(bars.map(ohlcv)).toEqual([[0, 100, 110, 90, 96, 15]]);
    expect(kernel.lateBarInputs()).toEqual([]);
  });

  it('keeps the trades before the first kline’s minute, and takes the ones of that minute from the kline', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars, '5m') }]);
    kernel.push(aTrade(30_000, 100, 1));
    kernel.push(aTrade(90_000, 101, 1));
    kernel.push(aTrade(150_000, 102, 1));
    // Received before the kline of [2m, 3m), which holds the trade at 150 s and more.
    kernel.push(aTrade(180_003, 103, 1));
    kernel.push(aMinuteKline(120_000, [101, 108, 101, 102, 4]));
    kernel.push(aMinuteKline(180_000, [102, 104, 98, 103, 6]));
    kernel.push(aMinuteKline(240_000, [103, 103, 99, 100, 7]));
    expect(bars.map(ohlcv)).toEqual([[0, 100, 108, 98, 100, 19]]);
    expect(kernel.lateBarInputs()).toEqual([]);
  });

  it('keeps the volume before the first kline’s minute when the trades arrived out of order', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars, '5m') }]);
    kernel.push(aTrade(130_000, 102, 3));
    kernel.push(aTrade(70_000, 101, 2));
    kernel.push(aTrade(10_000, 100, 1));
    // Holds the trade of 3 at 130 s: the bar keeps the 1 + 2 before it.
    kernel.push(aMinuteKline(120_000, [102, 104, 102, 103, 4]));
    kernel.push(aMinuteKline(180_000, [103, 103, 103, 103, 5]));
    kernel.push(aMinuteKline(240_000, [103, 103, 99, 99, 6]));
    expect(bars.map((b) => [b.openTime, b.high, b.low, b.close, b.volume])).toEqual([[0, 104, 99, 99, 18]]);
    expect(kernel.lateBarInputs()).toEqual([]);
  });

  it('property: trades then 1m klines from any minute give 5m bars of the whole market', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            at: fc.integer({ min: 0, max: 59_999 }),
            minute: fc.integer({ min: 0, max: 29 }),
            price: fc.integer({ min: 1, max: 1000 }),
            qty: fc.integer({ min: 1, max: 5 }),
          }),
          { minLength: 1, maxLength: 80 },
        ),
        fc.integer({ min: 0, max: 29 }),
        fc.integer({ min: 0, max: 2 }),
        (drawn, start, overlap) => {
          const trades = drawn
            .map((t) => aTrade(t.minute * 60_000 + t.at, t.price, t.qty))
            .sort((a, b) => a.ts - b.ts);
          const klines: BarEvent[] = [];
          for (let m = start; m < 30; m++) {
            const of = trades.filter((t) => t.ts - (t.ts % 60_000) === m * 60_000);
            if (of.length === 0) continue;
            const prices = of.map((t) => t.price);
            klines.push(
              aMinuteKline(m * 60_000, [
                prices[0]!,
                Math.max(...prices),
                Math.min(...prices),
                prices.at(-1)!,
                of.reduce((sum, t) => sum + t.qty, 0),
              ]),
            );
          }
          // A first kline ending a 5m bar comes after that bar was due from trades, late (counted).
          fc.pre(klines.length === 0 || (klines[0]!.openTime / 60_000) % 5 !== 4);
          const sent = trades.filter((t) => t.ts < (start + overlap) * 60_000);
          const bars: BarEvent[] = [];
          const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars, '5m') }]);
          const events = [...sent, ...klines].map((event, tie) => ({ event, tie }));
          for (const e of byTime(events)) kernel.push(e);
          kernel.advanceTime(Number.MAX_SAFE_INTEGER);
          const market = trades.map((t) =>
            aFeedBar(t.ts - (t.ts % 60_000), [t.price, t.price, t.price, t.price, t.qty]),
          );
          expect(bars.map(ohlcv)).toEqual(grouped(market, 300_000));
          expect(kernel.lateBarInputs()).toEqual([]);
        },
      ),
    );
  });
});
