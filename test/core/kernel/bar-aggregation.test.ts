import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { BarEvent } from '../../../core/model/index.ts';
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
