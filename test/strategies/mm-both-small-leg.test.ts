import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../core/kernel/index.ts';
import { marketMaker } from '../../strategies/index.ts';
import { BTC } from '../kit/kernel-events.ts';
import { aQuote } from '../kit/sim-builders.ts';
import { aStrategyRig } from '../kit/strategy-rig.ts';

/**
 * Leaves a small SHORT (0.001 at ~1000: 1 USDT, under minNotional 5), as a part fill of a quote
 * would: sells 0.01 and buys 0.009 back reduce-only. In BOTH mode on the SHORT leg.
 */
const setup = (mode: 'BOTH' | 'NET') =>
  defineStrategy({
    name: 'setup',
    params: z.object({}).strict(),
    state: () => ({ n: 0 }),
    onStart: (ctx) => (mode === 'BOTH' ? ctx.order.setPositionMode('BOTH') : undefined),
    onQuote: (ctx) => {
      if (ctx.positionMode() !== mode) return undefined;
      const leg = mode === 'BOTH' ? { positionSide: 'SHORT' as const } : {};
      ctx.state.n++;
      if (ctx.state.n === 1) return ctx.order.market({ sym: BTC, side: 'SELL', qty: '0.01', ...leg });
      if (ctx.state.n === 2)
        return ctx.order.market({ sym: BTC, side: 'BUY', qty: '0.009', reduceOnly: true, ...leg });
      return undefined;
    },
  });

describe('market-maker in BOTH mode with a small opposite leg (minNotional 5)', () => {
  for (const mode of ['NET', 'BOTH'] as const) {
    it(`${mode}: keeps a BUY quote resting (in BOTH on the LONG leg while the SHORT leg is too small to close)`, async () => {
      const params = { sym: BTC, qty: 0.01, maxPosition: 0.03, halfSpreadTicks: 1, skewTicksPerUnit: 0 };
      const rig = await aStrategyRig([
        { id: 'setup', strategy: setup(mode), params: {} },
        { id: 'mm', strategy: marketMaker, params },
      ]);
      for (let i = 0; i < 10; i++) rig.push(aQuote((i + 1) * 1000, 1000, 5, 1000.1, 5));
      const orders = await rig.venueOrders(BTC);
      expect(orders.filter((o) => o.side === 'BUY').length).toBe(1);
      expect(rig.denials).toEqual([]);
    });
  }
});
