import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { BarEvent, BarInterval, MarketEvent } from '../../../core/model/index.ts';
import { BAR_INTERVAL_MS } from '../../../core/model/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, BTC } from '../../kit/kernel-events.ts';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const HOUR = 60 * MIN;

function barOf(
  interval: BarInterval,
  openTime: number,
  o: number,
  h: number,
  l: number,
  c: number,
  v: number,
): BarEvent {
  const ts = openTime + BAR_INTERVAL_MS[interval];
  return {
    kind: 'bar',
    sym: BTC,
    ts,
    recvTs: ts,
    interval,
    openTime,
    open: o,
    high: h,
    low: l,
    close: c,
    volume: v,
    closed: true,
  };
}

async function* once(events: readonly MarketEvent[]): AsyncGenerator<readonly MarketEvent[]> {
  yield events;
}

/** A 1h trend filter + 5m entries: watches 1h and 5m, logs every bar it gets. */
function mtf(log: string[]) {
  return defineStrategy({
    name: 'mtf',
    params: z.object({}),
    onStart: (ctx) => {
      ctx.watchBars(BTC, '1h');
      ctx.watchBars(BTC, '5m');
    },
    onBar: (ctx, b) => {
      log.push(
        `${b.interval}@${(b.openTime - T0) / MIN}${ctx.warmingUp ? ' warm' : ''} o${b.open} h${b.high} l${b.low} c${b.close} v${b.volume}`,
      );
    },
  });
}

describe('warm-up on 1h history (the README example: an OHLCV CSV of 1h bars), live feed of 1m klines', () => {
  it('still gets 1h bars (built from the live 1m klines) after the warm-up', async () => {
    const log: string[] = [];
    // Run starts just after 03:00; warm-up 3 bars of 1h: 00:00, 01:00, 02:00 from the 1h CSV.
    const LIVE = T0 + 3 * HOUR + 1;
    const H3 = T0 + 3 * HOUR;
    const history = [0, 1, 2].map((h) => barOf('1h', T0 + h * HOUR, 100 + h, 110 + h, 90 + h, 105 + h, 1000));
    const { kernel, market } = aKernelRig([{ id: 'm', strategy: mtf(log), params: {} }], {
      start: LIVE,
      warmUp: { periodMs: 3 * HOUR, alignMs: HOUR, history: once(history) },
    });
    const coverage = await kernel.whenTrading();
    // The 1h history covers the 1h watch, but builds no 5m bar: the session warns of it.
    expect(coverage).toMatchObject({ uncovered: [`${BTC} 5m`], short: [], complete: false });
    expect(log).toEqual([
      '1h@0 warm o100 h110 l90 c105 v1000',
      '1h@60 warm o101 h111 l91 c106 v1000',
      '1h@120 warm o102 h112 l92 c107 v1000',
    ]);
    // Live: the venue session subscribes to 1m klines (config/compose/market-subscriptions.ts).
    // 60 one-minute klines 03:00..03:59: open 200+m, high 201+m, low 199+m, close 200.5+m, volume 2.
    for (let m = 0; m < 60; m++)
      market.next(aFeedBar(H3 + m * MIN, [200 + m, 201 + m, 199 + m, 200.5 + m, 2]));
    // Hand-computed: 12 five-minute bars, then the 03:00 hour bar:
    // open 200 (minute 0), high 201+59 = 260, low 199, close 200.5+59 = 259.5, volume 60*2 = 120.
    const hourly = log.filter((l) => l.startsWith('1h@180'));
    const fives = log.filter((l) => l.startsWith('5m@'));
    expect(fives.length).toBe(12);
    expect(hourly).toEqual(['1h@180 o200 h260 l199 c259.5 v120']);
  });
});
