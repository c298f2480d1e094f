import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { BTC } from '../../kit/kernel-events.ts';
import { aQuote } from '../../kit/sim-builders.ts';
import { aStrategyRig } from '../../kit/strategy-rig.ts';

/** What the strategy saw of the legs on each fill. */
const seen: string[] = [];

/** In BOTH mode: buys 0.1 on LONG and 0.2 on SHORT, then sells the LONG leg, noting each leg on every fill. */
const legs = defineStrategy({
  name: 'legs',
  params: z.object({}).strict(),
  state: () => ({ n: 0 }),
  onStart: (ctx) => ctx.order.setPositionMode('BOTH'),
  onQuote: (ctx) => {
    if (ctx.positionMode() !== 'BOTH') return undefined;
    const n = ++ctx.state.n;
    if (n === 1) return ctx.order.market({ sym: BTC, side: 'BUY', qty: '0.1', positionSide: 'LONG' });
    if (n === 2) return ctx.order.market({ sym: BTC, side: 'SELL', qty: '0.2', positionSide: 'SHORT' });
    if (n === 3)
      return ctx.order.market({ sym: BTC, side: 'SELL', qty: '0.1', positionSide: 'LONG', reduceOnly: true });
    return undefined;
  },
  onFill: (ctx, fill) => {
    seen.push(
      `${fill.side} ${fill.positionSide}: LONG ${ctx.legQty(BTC, 'LONG').toFixed()} SHORT ${ctx.legQty(BTC, 'SHORT').toFixed()} net ${ctx.netQty(BTC).toFixed()}`,
    );
    return undefined;
  },
});

describe('ctx.legQty', () => {
  it('holds each leg with every fill booked, before the venue reports the position', async () => {
    const rig = await aStrategyRig([{ id: 'legs', strategy: legs, params: {} }]);
    for (let i = 0; i < 6; i++) rig.push(aQuote((i + 1) * 1000, 1000, 5, 1000.1, 5));
    expect(seen).toEqual([
      'BUY LONG: LONG 0.1 SHORT 0 net 0.1',
      'SELL SHORT: LONG 0.1 SHORT -0.2 net -0.1',
      'SELL LONG: LONG 0 SHORT -0.2 net -0.2',
    ]);
  });
});
