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

/** Events in receive order; `tie` breaks equal times. */
function byTime(events: readonly { event: KeelEvent; tie: number }[]): KeelEvent[] {
  return [...events].sort((a, b) => a.event.ts - b.event.ts || a.tie - b.tie).map((e) => e.event);
}

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
