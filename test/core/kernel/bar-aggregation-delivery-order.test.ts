import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { BarInterval } from '../../../core/model/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, aQuote, aTrade, BTC } from '../../kit/kernel-events.ts';

const MIN = 60_000;

/** Watches BTC bars of the intervals in the order given; logs `interval@minute` as they arrive. */
function watcher(log: string[], intervals: readonly BarInterval[]) {
  return defineStrategy({
    name: 'order',
    params: z.object({}),
    onStart: (ctx) => {
      for (const interval of intervals) ctx.watchBars(BTC, interval);
    },
    onBar: (_ctx, b) => {
      log.push(`${b.interval}@${b.openTime / MIN}`);
    },
  });
}

describe('bars of a sym closing at the same instant', () => {
  it('arrive finest first from 1m klines, whatever order the strategy watched them in', () => {
    const log: string[] = [];
    const { kernel } = aKernelRig([{ id: 'o', strategy: watcher(log, ['15m', '1m', '5m']) }]);
    for (let m = 0; m < 15; m++) kernel.push(aFeedBar(m * MIN, [100, 101, 99, 100, 1]));
    expect(log.slice(-4)).toEqual(['1m@13', '1m@14', '5m@10', '15m@0']);
  });

  it('arrive finest first from trades, whatever order the strategy watched them in', () => {
    const log: string[] = [];
    const { kernel } = aKernelRig([{ id: 'o', strategy: watcher(log, ['5m', '1m']) }]);
    for (let m = 0; m < 5; m++) kernel.push(aTrade(m * MIN + 1_000, 100));
    kernel.push(aQuote(5 * MIN, 100));
    expect(log).toEqual(['1m@0', '1m@1', '1m@2', '1m@3', '1m@4', '5m@0']);
  });
});
