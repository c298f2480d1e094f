import { z } from 'zod';
import { defineStrategy } from '../../core/kernel/index.ts';

/**
 * A strategy that watches a sym's 1m bars and notes the open time of every bar it sees, in
 * minutes after `t0`: what a run delivered, for tests of replay windows and skipped lines.
 * @param seen - where the open times go
 * @param sym - the sym whose bars it watches
 * @param t0 - the time the minutes count from, epoch ms
 * @returns the strategy
 */
export function barOpensSeenBy(seen: number[], sym: string, t0: number) {
  return defineStrategy({
    name: 'open-times',
    params: z.object({}),
    onStart: (ctx) => ctx.watchBars(sym, '1m'),
    onBar: (_ctx, bar) => {
      seen.push((bar.openTime - t0) / 60_000);
    },
  });
}
