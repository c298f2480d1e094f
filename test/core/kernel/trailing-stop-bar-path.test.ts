import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, TrailingLevel, type TrailingStop } from '../../../core/kernel/index.ts';
import type { OrderSide } from '../../../core/model/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, BTC } from '../../kit/kernel-events.ts';

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
