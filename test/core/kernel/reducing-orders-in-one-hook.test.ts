import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

describe('kernel: several "reducing" orders in one hook', () => {
  it('lets through only the sells whose worst case, every earlier one filled, stays within maxPositionQty', () => {
    const strategy = defineStrategy({
      name: 'ten-sells',
      params: z.object({}),
      onQuote: (ctx, quote) => {
        if (quote.ts === 1) return ctx.order.market({ sym: BTC, side: 'BUY', qty: 0.05 });
        if (quote.ts === 2)
          return Array.from({ length: 10 }, () =>
            ctx.order.limit({ sym: BTC, side: 'SELL', qty: 0.05, price: 101 }),
          );
      },
    });
    const gate = new RiskGate({ limits: { maxPositionQty: '0.1' } });
    const rig = aKernelRig([{ id: 's', strategy }], { gate });
    rig.market.next(aQuote(1, 100));
    expect(rig.kernel.state.positionQty(BTC, 'NONE').toFixed()).toBe('0.05');
    rig.market.next(aQuote(2, 100));
    const sells = rig.venue.submitted.filter(
      (c) => c.intent.kind === 'placeOrder' && c.intent.side === 'SELL',
    );
    // One closes the long, two open a short of up to 0.1; the other seven would take it past 0.1.
    expect(sells).toHaveLength(3);
    expect(rig.denials.map((d) => d.check)).toEqual(Array.from({ length: 7 }, () => 'maxPosition'));
  });
});
