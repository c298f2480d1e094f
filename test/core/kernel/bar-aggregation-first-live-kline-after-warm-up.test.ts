import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, aTrade, BTC } from '../../kit/kernel-events.ts';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;

async function* once(events: readonly MarketEvent[]): AsyncGenerator<readonly MarketEvent[]> {
  yield events;
}

describe('review27: live session warmed up on 1m klines, started 40 s into a minute, strategy on 1m', () => {
  it('the first live 1m bar holds only the trades since the start: the venue’s kline or a partial flag', async () => {
    const bars: string[] = [];
    const s = defineStrategy({
      name: 'review27-1m',
      params: z.object({}),
      onStart: (ctx) => ctx.watchBars(BTC, '1m'),
      onBar: (ctx, b) => {
        if (!ctx.warmingUp)
          bars.push(`${(b.openTime - T0) / MIN} v${b.volume}${b.partial ? ' partial' : ''}`);
      },
    });
    const LIVE = T0 + 10 * MIN + 40_000; // 00:10:40
    // History: 1m klines of minutes 0..9, each received as it closes.
    const history = Array.from({ length: 10 }, (_, m) => aFeedBar(T0 + m * MIN, [100, 101, 99, 100, 10]));
    const { kernel, market } = aKernelRig([{ id: 's', strategy: s }], {
      start: LIVE,
      warmUp: { periodMs: 10 * MIN, history: once(history) },
    });
    await kernel.whenTrading();
    // Live: trades at 00:10:45 and 00:10:50, the next minute's first trade at 00:11:00.100, then the
    // venue's closed kline of minute 10 (volume 10: the whole minute) at 00:11:00.200.
    market.next(aTrade(T0 + 10 * MIN + 45_000, 100, 1));
    market.next(aTrade(T0 + 10 * MIN + 50_000, 100, 1));
    market.next(aTrade(T0 + 11 * MIN + 100, 100, 1));
    const k = aFeedBar(T0 + 10 * MIN, [100, 101, 99, 100, 10]);
    market.next({ ...k, ts: T0 + 11 * MIN + 200, recvTs: T0 + 11 * MIN + 200 });
    // Either the venue's whole bar, or the 2-trade bar flagged partial.
    expect(['10 v10', '10 v2 partial']).toContain(bars[0]);
  });
});
