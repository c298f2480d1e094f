import { describe, expect, it } from 'vitest';
import { SYNTHETIC_BTC_PERP } from '../../../backtest/synthetic/index.ts';
import { D } from '../../../core/model/index.ts';
import {
  deniedIntents,
  maxAbsPosition,
  scriptedBacktest,
  smallBuyTrigger,
} from '../../kit/scripted-backtests.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

const _SYM = SYNTHETIC_BTC_PERP.sym;

describe('replacing an algo order', () => {
  const session = syntheticSessionFile({ seed: 11, minutes: 3, file: 'session.jsonl.gz' });

  it.each([
    ['maxPosition', { maxPositionQty: '0.1' }],
    ['maxNotional', { maxNotionalPerOrder: '2000' }],
    ['maxGrossExposure', { maxGrossExposure: '2000' }],
  ] as const)('cannot grow it past the limit %s checks', async (check, limits) => {
    // A GTE BUY 0.01 trigger just above the mid (~950 USDT, position 0.01) passes; replaced to
    // qty 5 (~475 000 USDT, position 5) it must not, or the trigger buys 5 past the gate.
    const result = await scriptedBacktest(
      session.path,
      [
        (ctx, mid) => {
          const algo = smallBuyTrigger(ctx, mid);
          ctx.state.refs.push(algo.ref);
          return algo;
        },
        () => undefined,
        (ctx) => ctx.order.replaceAlgo(ctx.state.refs[0] as string, { qty: 5 }),
      ],
      { limits },
    );
    expect(deniedIntents(result)).toEqual([`replaceAlgoOrder ${check}`]);
    expect(maxAbsPosition(result.fills).lte(D('0.01'))).toBe(true);
  });
});
