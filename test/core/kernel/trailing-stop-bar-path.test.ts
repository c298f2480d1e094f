import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy, TrailingLevel, type TrailingStop } from '../../../core/kernel/index.ts';
import type { OrderSide } from '../../../core/model/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, BTC } from '../../kit/kernel-events.ts';
import { TEST_HEADER, tempDir } from '../../kit/recording-files.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = TEST_HEADER.startTime;

describe('emulated trailing stop on bars: the walk must not pick the path that spares the stop', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());

  it('triggers a SELL stop 2 under the high when the bar rose 10 and fell 11 (either order of the extremes)', async () => {
    const dir = join(temp.dir, 'bars');
    await mkdir(dir);
    // bar 0: flat 100 (the stop is placed in onStart, active at 98).
    // bar 1: open 100, high 110, low 99, close 109.
    //   Walked open, low, high, close (Keel's old walk): 99 > 98, 110 -> stop 108, close 109 > 108: no trigger.
    //   Walked open, high, low, close (Keel's walk now): 110 -> stop 108, then 99 <= 108: triggered.
    //   The bar cannot say which came first; only the second order is the adverse one for a
    //   trailing stop (its level moves with the favourable extreme), and it is the one live
    //   trading would have met whenever the high came before the low.
    const path = await barsRecordingIn(
      dir,
      [
        [100, 100, 100, 100],
        [100, 110, 99, 109],
        [109, 109, 109, 109],
      ],
      T0,
      SYM,
    );
    const onBars = defineStrategy({
      name: 'bar-trailer',
      params: z.object({}).strict(),
      onStart: (ctx) =>
        ctx.order.trailingStop({
          sym: SYM,
          side: 'SELL',
          qty: 1,
          offset: { price: 2 },
          reduceOnly: false,
          ref: 'bt-1',
        }),
    });
    const result = await runBacktest({
      ...barRunOptions(path, [anInstrument(SYM)], [{ id: 'b', strategy: onBars, params: {} }]),
      latency: { orderEntry: { fixedMs: 10, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    });
    const stop = result.trailingStops?.[0];
    const steps = stop?.steps.map(
      (s) => `T0+${(s.ts - T0) / 60_000}m ${s.status} ${s.stopPrice?.toFixed() ?? '-'}`,
    );
    result.dispose?.();
    expect(steps?.at(-1)).toBe('T0+2m TRIGGERED 108');
  });
});

type Ohlc = readonly [number, number, number, number];

/** The index of the bar a stop walked in this order of each bar's extremes triggers on, or Infinity. */
function triggerBar(level: TrailingLevel, bars: readonly Ohlc[], highFirst: boolean): number {
  for (const [i, [open, high, low, close]] of bars.entries()) {
    const path = highFirst ? [open, high, low, close] : [open, low, high, close];
    if (path.some((price) => level.next(price) === 'triggered')) return i;
  }
  return Number.POSITIVE_INFINITY;
}

describe('emulated trailing stop on bars: property', () => {
  const bar = fc
    .tuple(
      fc.integer({ min: 500, max: 1500 }),
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 0, max: 60 }),
    )
    // In ticks of 0.1: low <= open, close <= high.
    .map(([low, toOpen, toClose, up, extra]): Ohlc => {
      const high = low + Math.max(toOpen, toClose) + up + extra;
      return [(low + toOpen) / 10, high / 10, low / 10, (low + toClose) / 10];
    });

  it('triggers no later than either order of each bar’s extremes would', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<OrderSide>('SELL', 'BUY'),
        fc.integer({ min: 1, max: 80 }),
        fc.option(fc.integer({ min: 500, max: 1500 }), { nil: undefined }),
        fc.array(bar, { minLength: 1, maxLength: 12 }),
        (side, ticks, activationTicks, bars) => {
          const activationPrice = activationTicks === undefined ? undefined : activationTicks / 10;
          const updates: TrailingStop[] = [];
          const trailer = defineStrategy({
            name: 'trailer',
            params: z.object({}),
            onStart: (ctx) =>
              ctx.order.trailingStop({
                sym: BTC,
                side,
                qty: 1,
                offset: { ticks },
                reduceOnly: false,
                ...(activationPrice === undefined ? {} : { activationPrice }),
              }),
            onTrailingStop: (_ctx, update) => {
              updates.push(update);
            },
          });
          const rig = aKernelRig([{ id: 's', strategy: trailer }]);
          for (const [i, [o, h, l, c]] of bars.entries())
            rig.market.next(aFeedBar(i * 60_000, [o, h, l, c, 1]));
          const triggered = updates.find((u) => u.status === 'TRIGGERED');
          const at = triggered === undefined ? Number.POSITIVE_INFINITY : triggered.updateAt / 60_000 - 1;
          const params = {
            side,
            tick: 0.1,
            offsetType: 'TICKS' as const,
            offset: ticks,
            ...(activationPrice === undefined ? {} : { activationPrice }),
          };
          const highFirst = triggerBar(new TrailingLevel(params), bars, true);
          const lowFirst = triggerBar(new TrailingLevel(params), bars, false);
          expect(at).toBeLessThanOrEqual(Math.min(highFirst, lowFirst));
        },
      ),
    );
  });
});
