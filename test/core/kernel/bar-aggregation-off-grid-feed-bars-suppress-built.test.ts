import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { BarEvent, BarInterval } from '../../../core/model/index.ts';
import { BAR_INTERVAL_MS } from '../../../core/model/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, BTC } from '../../kit/kernel-events.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

function kline(interval: BarInterval, openTime: number, v: number, lag: number): BarEvent {
  const ts = openTime + BAR_INTERVAL_MS[interval] + lag;
  return { ...aFeedBar(openTime, [100, 101, 99, 100, v]), interval, ts, recvTs: ts };
}

describe('review27: 1h klines opening on the half hour (an IST CSV) alongside 1m klines, strategy on 1h', () => {
  it('gives the feed’s 1h bars only, never a built 1h bar overlapping them', () => {
    const bars: BarEvent[] = [];
    const s = defineStrategy({
      name: 'review27-1h',
      params: z.object({}),
      onStart: (ctx) => ctx.watchBars(BTC, '1h'),
      onBar: (_ctx, bar) => {
        bars.push(bar);
      },
    });
    const { kernel } = aKernelRig([{ id: 'h', strategy: s }]);
    const events: BarEvent[] = [];
    for (let m = 0; m < 6 * 60; m++) events.push(kline('1m', m * MIN, 1, 6));
    // 1h klines opening at 00:30, 01:30, ... 04:30, volume 999.
    for (let h = 0; h < 5; h++) events.push(kline('1h', h * HOUR + 30 * MIN, 999, 5));
    for (const e of events.sort((a, b) => a.ts - b.ts)) kernel.push(e);
    kernel.advanceTime(Number.MAX_SAFE_INTEGER);
    const opens = bars.map(
      (b) => `${(b.openTime / MIN / 60).toFixed(1)}h${b.volume === 999 ? ' feed' : ' built'}`,
    );
    // No two delivered 1h bars may overlap in time.
    for (let i = 1; i < bars.length; i++)
      expect(
        bars[i]!.openTime,
        `bar ${i} overlaps bar ${i - 1}: ${opens.join(' | ')}`,
      ).toBeGreaterThanOrEqual(bars[i - 1]!.openTime + HOUR);
    // The hour built before the feed's first 1h bar came, then the feed's bars; the first one, overlapping it, counted.
    expect(opens).toEqual(['0.0h built', '1.5h feed', '2.5h feed', '3.5h feed', '4.5h feed']);
    expect(kernel.lateBarInputs()).toEqual([
      { sym: BTC, interval: '1h', from: '1h', reason: 'offGrid', count: 1, firstTs: 90 * MIN + 5 },
    ]);
  });

  it('property: 1h klines at any minute off the hour, for any hours, alongside 1m klines, never give two overlapping 1h bars', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 59 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
        (offset, firstFed, fedHours) => {
          const bars: BarEvent[] = [];
          const s = defineStrategy({
            name: 'off-grid-property',
            params: z.object({}),
            onStart: (ctx) => ctx.watchBars(BTC, '1h'),
            onBar: (_ctx, bar) => {
              bars.push(bar);
            },
          });
          const { kernel } = aKernelRig([{ id: 'h', strategy: s }]);
          const events: BarEvent[] = [];
          for (let m = 0; m < 10 * 60; m++) events.push(kline('1m', m * MIN, 1, 6));
          for (let h = firstFed; h < firstFed + fedHours; h++)
            events.push(kline('1h', h * HOUR + offset * MIN, 999, 5));
          for (const e of events.sort((a, b) => a.ts - b.ts)) kernel.push(e);
          kernel.advanceTime(Number.MAX_SAFE_INTEGER);
          for (let i = 1; i < bars.length; i++)
            expect(bars[i]!.openTime).toBeGreaterThanOrEqual(bars[i - 1]!.openTime + HOUR);
          // Every feed bar after the first is delivered; the hours after the feed's last bar are built again.
          const fed = bars.filter((b) => b.volume === 999).length;
          expect(fed).toBeGreaterThanOrEqual(fedHours - 1);
          expect(bars.at(-1)?.openTime).toBe(9 * HOUR);
        },
      ),
    );
  });
});
