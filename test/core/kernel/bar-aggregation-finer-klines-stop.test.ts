import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { BarEvent, KeelEvent } from '../../../core/model/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, aTrade, BTC } from '../../kit/kernel-events.ts';

const MIN = 60_000;

function collector(bars: BarEvent[]) {
  return defineStrategy({
    name: 'review27-collector',
    params: z.object({}),
    onStart: (ctx) => {
      ctx.watchBars(BTC, '1m');
      ctx.watchBars(BTC, '5m');
    },
    onBar: (_ctx, bar) => {
      bars.push(bar);
    },
  });
}

describe('review27: a live feed whose 1m klines stop while its trades go on, strategy on 1m and 5m', () => {
  it('keeps giving 5m bars (built from the trades, as the 1m bars are) once the klines stopped', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'b', strategy: collector(bars) }]);
    const events: KeelEvent[] = [];
    // Trades at :10 and :50 of minutes 0..19; 1m klines of minutes 0..4 only (received 6 ms after close).
    for (let m = 0; m < 20; m++)
      events.push(aTrade(m * MIN + 10_000, 100 + m, 1), aTrade(m * MIN + 50_000, 100 + m, 1));
    for (let m = 0; m < 5; m++) {
      const ts = (m + 1) * MIN + 6;
      events.push({ ...aFeedBar(m * MIN, [100 + m, 100 + m, 100 + m, 100 + m, 2]), ts, recvTs: ts });
    }
    for (const e of [...events].sort((a, b) => a.ts - b.ts)) kernel.push(e);
    kernel.advanceTime(Number.MAX_SAFE_INTEGER);
    const opens = (interval: string) =>
      bars.filter((b) => b.interval === interval).map((b) => b.openTime / MIN);
    // The 1m bars go on, built from trades: minutes 0..19.
    expect(opens('1m')).toEqual(Array.from({ length: 20 }, (_, m) => m));
    // The 5m bars: 0 (from klines), then 5, 10, 15 from the same trades that build the 1m bars.
    expect(opens('5m')).toEqual([0, 5, 10, 15]);
    // Bars go back to trades at 00:07:10, a minute after the missing kline of minute 5 was due:
    // the 4 trades of minutes 5 and 6 are left out, counted, and the 00:05 bar says it is partial.
    const fives = bars.filter((b) => b.interval === '5m');
    expect(fives.map((b) => b.partial === true)).toEqual([false, true, false, false]);
    expect(fives[1]).toMatchObject({ open: 107, volume: 6 });
    expect(kernel.lateBarInputs()).toEqual([
      { sym: BTC, interval: '5m', from: 'trade', reason: 'stopped', count: 4, firstTs: 5 * MIN + 10_000 },
    ]);
  });
});
