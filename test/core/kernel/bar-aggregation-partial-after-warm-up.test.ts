import { describe, expect, it } from 'vitest';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar } from '../../kit/kernel-events.ts';
import { closedBtcBar, multiTimeframeBarLog, oneBatch } from '../../kit/multi-timeframe-bars.ts';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const HOUR = 60 * MIN;

describe('warm-up on 1h history, live start mid-hour on 1m klines', () => {
  it('flags the first live 1h bar, built from 30 of its 60 minutes, partial', async () => {
    const log: string[] = [];
    const LIVE = T0 + 3 * HOUR + 30 * MIN; // the session starts at 03:30
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
    await kernel.whenTrading();
    // Live 1m klines from 03:30 to 04:59 (the session never saw 03:00..03:29).
    for (let m = 30; m < 120; m++)
      market.next(aFeedBar(T0 + 3 * HOUR + m * MIN, [200 + m, 201 + m, 199 + m, 200.5 + m, 2]));
    const hourly = log.filter((l) => l.startsWith('1h@180') || l.startsWith('1h@240'));
    // 03:00 hour: open 230 (minute 30), high 201+59 = 260, low 229, close 259.5, volume 30*2 = 60: half an hour.
    expect(hourly).toEqual(['1h@180 partial o230 h260 l229 c259.5 v60', '1h@240 o260 h320 l259 c319.5 v120']);
  });

  it('does not flag a 1h bar the history’s 1m klines began at its open and the live ones go on with', async () => {
    const log: string[] = [];
    const LIVE = T0 + 3 * HOUR + 30 * MIN;
    // History: 1m klines 02:00..03:28 (received before 03:30); live: 1m klines 03:29..03:59.
    const history = Array.from({ length: 90 }, (_, m) =>
      closedBtcBar('1m', T0 + 2 * HOUR + m * MIN, 1, 2, 0.5, 1, 1),
    );
    const { kernel, market } = aKernelRig(
      [{ id: 'm', strategy: multiTimeframeBarLog(log, T0), params: {} }],
      {
        start: LIVE,
        warmUp: { periodMs: 90 * MIN, history: oneBatch(history) },
      },
    );
    await kernel.whenTrading();
    for (let m = 29; m < 60; m++) market.next(aFeedBar(T0 + 3 * HOUR + m * MIN, [1, 2, 0.5, 1, 1]));
    expect(log.filter((l) => l.startsWith('1h@'))).toEqual([
      '1h@120 warm o1 h2 l0.5 c1 v60',
      '1h@180 o1 h2 l0.5 c1 v60',
    ]);
  });
});
