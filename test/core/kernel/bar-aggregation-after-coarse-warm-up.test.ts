import { describe, expect, it } from 'vitest';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, BTC } from '../../kit/kernel-events.ts';
import { closedBtcBar, multiTimeframeBarLog, oneBatch } from '../../kit/multi-timeframe-bars.ts';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const HOUR = 60 * MIN;

describe('warm-up on 1h history (the README example: an OHLCV CSV of 1h bars), live feed of 1m klines', () => {
  it('still gets 1h bars (built from the live 1m klines) after the warm-up', async () => {
    const log: string[] = [];
    // Run starts just after 03:00; warm-up 3 bars of 1h: 00:00, 01:00, 02:00 from the 1h CSV.
    const LIVE = T0 + 3 * HOUR + 1;
    const H3 = T0 + 3 * HOUR;
    const history = [0, 1, 2].map((h) =>
      closedBtcBar('1h', T0 + h * HOUR, 100 + h, 110 + h, 90 + h, 105 + h, 1000),
    );
    const { kernel, market } = aKernelRig(
      [{ id: 'm', strategy: multiTimeframeBarLog(log, T0), params: {} }],
      {
        start: LIVE,
        warmUp: { periodMs: 3 * HOUR, alignMs: HOUR, history: oneBatch(history) },
      },
    );
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
