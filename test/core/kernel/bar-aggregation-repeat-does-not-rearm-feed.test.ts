import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { BarEvent, BarInterval } from '../../../core/model/index.ts';
import { BAR_INTERVAL_MS } from '../../../core/model/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, BTC } from '../../kit/kernel-events.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** A closed kline of `interval` opening at `openTime`, received `lag` ms after its close. */
function kline(interval: BarInterval, openTime: number, v: number, lag: number): BarEvent {
  const ts = openTime + BAR_INTERVAL_MS[interval] + lag;
  return { ...aFeedBar(openTime, [100, 101, 99, 100, v]), interval, ts, recvTs: ts };
}

describe('1h klines that stopped, then one of them repeated (a resent message), with 1m klines throughout', () => {
  it('keeps delivering the built 1h bars on the kline that ends them: a repeat does not say the feed’s bars came back', () => {
    const delivered: string[] = [];
    const s = defineStrategy({
      name: 'repeat-rearm',
      params: z.object({}),
      onStart: (ctx) => ctx.watchBars(BTC, '1h'),
      onBar: (ctx, bar) => {
        delivered.push(`${bar.openTime / HOUR}h at ${ctx.now() - bar.openTime - HOUR}`);
      },
    });
    const { kernel } = aKernelRig([{ id: 'h', strategy: s }]);
    const events: BarEvent[] = [];
    for (let m = 0; m < 5 * 60; m++) events.push(kline('1m', m * MIN, 1, 6));
    events.push(kline('1h', 0, 999, 5), kline('1h', HOUR, 999, 5));
    // The 00:00 1h kline again, at 03:30.
    events.push({ ...kline('1h', 0, 999, 5), ts: 3.5 * HOUR, recvTs: 3.5 * HOUR });
    for (const e of events.sort((a, b) => a.ts - b.ts)) kernel.push(e);
    // Hour 2 waited a minute for the feed's bar (the 1h klines had just stopped); hours 3 and 4 did not.
    expect(delivered).toEqual(['0h at 5', '1h at 5', '2h at 60006', '3h at 6', '4h at 6']);
    expect(kernel.lateBarInputs()).toEqual([
      { sym: BTC, interval: '1h', from: '1h', reason: 'repeat', count: 1, firstTs: 3.5 * HOUR },
    ]);
  });
});
