import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { BTC } from '../../kit/kernel-events.ts';
import { aQuote } from '../../kit/sim-builders.ts';
import { aStrategyRig } from '../../kit/strategy-rig.ts';

describe('closing a position whose notional fell below minNotional (5 USDT), through the gate and the sim', () => {
  it('lets a reduce-only market order close it', async () => {
    let step = 0;
    const s = defineStrategy({
      name: 'probe',
      params: z.object({}),
      onQuote: (ctx) => {
        step++;
        if (step === 1) return ctx.order.market({ sym: BTC, side: 'BUY', qty: '0.06' }); // 0.06 x 100 = 6
        if (step === 3)
          return ctx.order.market({ sym: BTC, side: 'SELL', qty: ctx.netQty(BTC), reduceOnly: true }); // 0.06 x 80 = 4.8
        return undefined;
      },
    });
    const rig = await aStrategyRig([{ id: 's', strategy: s, params: {} }]);
    rig.push(aQuote(1000, 99.9, 100, 100, 100));
    rig.push(aQuote(2000, 99.9, 100, 100, 100));
    rig.push(aQuote(3000, 79.9, 100, 80, 100));
    rig.push(aQuote(4000, 79.9, 100, 80, 100));
    expect(rig.denials.map((d) => d.reason)).toEqual([]);
    expect((await rig.venueQty()).toFixed()).toBe('0');
  });
});
