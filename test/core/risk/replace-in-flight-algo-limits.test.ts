import { describe, expect, it } from 'vitest';
import { SYNTHETIC_BTC_PERP } from '../../../backtest/synthetic/index.ts';
import {
  deniedIntents,
  maxAbsPosition,
  onTick,
  scriptedBacktest,
  smallBuyTrigger,
} from '../../kit/scripted-backtests.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

const SYM = SYNTHETIC_BTC_PERP.sym;

describe('replacing an algo order the venue has not answered yet', () => {
  const session = syntheticSessionFile({ seed: 11, minutes: 3, file: 'session.jsonl.gz' });

  it.each([
    ['maxPosition', { maxPositionQty: '0.1' }],
    ['maxNotional', { maxNotionalPerOrder: '2000' }],
  ] as const)('still cannot grow it past the limit %s checks', async (check, limits) => {
    // As test/core/risk/algo-replace-limits.test.ts, but the replace goes in the same hook as the
    // placement (in paper/live: any hook before the venue's ack arrives); the factory names the
    // in-flight algo order's sym, so the instrument checks pass and the limits judge it.
    const result = await scriptedBacktest(
      session.path,
      [
        (ctx, mid) => {
          const algo = smallBuyTrigger(ctx, mid);
          return [algo, ctx.order.replaceAlgo(algo.ref, { qty: 5 })];
        },
      ],
      { limits },
    );
    expect({ denied: deniedIntents(result), maxPos: maxAbsPosition(result.fills).toFixed() }).toEqual({
      denied: [`replaceAlgoOrder ${check}`],
      maxPos: '0.01',
    });
  });

  it('judges a second replace with the first one’s qty merged in', async () => {
    // The first replace triples the qty (notional ~ 0.03 * mid, under the limit); the second sets
    // a limit price 10 % above: 0.03 at that price is past maxNotionalPerOrder, 0.01 would not be.
    let limit = 0;
    const result = await scriptedBacktest(
      session.path,
      [
        (ctx, mid) => {
          const algo = smallBuyTrigger(ctx, mid);
          limit = onTick(mid * 1.1);
          return [
            algo,
            ctx.order.replaceAlgo(algo.ref, { qty: 0.03 }),
            ctx.order.replaceAlgo(algo.ref, { price: limit }),
          ];
        },
      ],
      { limits: { maxNotionalPerOrder: '2000' } },
    );
    expect(limit * 0.01).toBeLessThan(2000);
    expect(limit * 0.03).toBeGreaterThan(2000);
    expect(deniedIntents(result)).toEqual(['replaceAlgoOrder maxNotional']);
  });

  it('denies a replace whose target is no algo order Keel knows or sent', async () => {
    // The target is the strategy's own plain order: ownership passes, but no algo order has that
    // reference, so no size or limit check could judge the replace; the kernel denies it before
    // the gate, as naming an order (kernel.targetKind).
    const result = await scriptedBacktest(
      session.path,
      [
        (ctx, mid) => {
          const bid = ctx.order.limit({ sym: SYM, side: 'BUY', qty: 0.01, price: onTick(mid * 0.9) });
          return [bid, { ...ctx.order.replaceAlgo(bid.ref, { qty: 5 }), sym: SYM }];
        },
      ],
      { limits: { maxPositionQty: '0.1' } },
    );
    expect(deniedIntents(result)).toEqual(['replaceAlgoOrder kernel.targetKind']);
  });
});
