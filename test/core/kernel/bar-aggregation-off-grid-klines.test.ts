import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { BarEvent } from '../../../core/model/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { BTC } from '../../kit/kernel-events.ts';

const T0 = Date.UTC(2024, 0, 2); // a Tuesday, 00:00 UTC
const MIN = 60_000;
const HOUR = 60 * MIN;

/** A closed 1h kline opening at `openTime` (received at its close). */
function hourBar(openTime: number, o: number, h: number, l: number, c: number, v: number): BarEvent {
  const ts = openTime + HOUR;
  return {
    kind: 'bar',
    sym: BTC,
    ts,
    recvTs: ts,
    interval: '1h',
    openTime,
    open: o,
    high: h,
    low: l,
    close: c,
    volume: v,
    closed: true,
  };
}

describe('4h bars from 1h klines that open on the half hour (a CSV written in a UTC+5:30 zone, or US equity 09:30 hours)', () => {
  it('never put a 1h kline reaching past the end of the 4h bar into it', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig(
      [
        {
          id: 'x',
          strategy: defineStrategy({
            name: 'x',
            params: z.object({}),
            onStart: (ctx) => ctx.watchBars(BTC, '4h'),
            onBar: (_ctx, b) => {
              bars.push(b);
            },
          }),
          params: {},
        },
      ],
      { start: T0 },
    );
    // 1h klines 00:30, 01:30, 02:30, 03:30 (03:30-04:30 straddles the 04:00 boundary), 04:30 ...
    // The 03:30 kline's high 999 and volume 50 happened partly after 04:00.
    kernel.push(hourBar(T0 + 0.5 * HOUR, 100, 101, 99, 100, 10));
    kernel.push(hourBar(T0 + 1.5 * HOUR, 100, 102, 98, 101, 10));
    kernel.push(hourBar(T0 + 2.5 * HOUR, 101, 103, 100, 102, 10));
    kernel.push(hourBar(T0 + 3.5 * HOUR, 102, 999, 101, 500, 50));
    kernel.push(hourBar(T0 + 4.5 * HOUR, 500, 510, 490, 505, 10));
    const first = bars[0] as BarEvent;
    // The 00:00-04:00 bar: whatever Keel decides for the straddling kline, a bar stamped as
    // ending at 04:00 must not hold a high, close and volume made after 04:00.
    expect(first.openTime).toBe(T0);
    expect(first.ts).toBe(T0 + 4 * HOUR);
    expect({ high: first.high, close: first.close, volume: first.volume }).toEqual({
      high: 103,
      close: 102,
      volume: 30,
    });
    // Delivered once the straddling kline said no more 1h kline of it would come; that kline is
    // counted for the end-of-run warnings.
    expect(bars).toHaveLength(1);
    expect(kernel.lateBarInputs()).toEqual([
      { sym: BTC, interval: '4h', from: '1h', reason: 'offGrid', count: 1, firstTs: T0 + 4.5 * HOUR },
    ]);
  });
});
