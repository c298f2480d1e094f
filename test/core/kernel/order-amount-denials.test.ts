import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

describe('kernel: an order whose qty or price is not a positive number', () => {
  it('is denied by orderQty / orderPrice, saying what it got, and the strategy runs on', () => {
    const strategy = defineStrategy({
      name: 'amounts',
      params: z.object({}),
      onQuote: (ctx, quote) =>
        quote.ts === 1
          ? [
              ctx.order.market({ sym: BTC, side: 'SELL', qty: -0.115 }),
              ctx.order.limit({ sym: BTC, side: 'BUY', qty: Number.NaN, price: 99 }),
              ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: Number.NaN }),
            ]
          : ctx.order.market({ sym: BTC, side: 'BUY', qty: 0.1 }),
    });
    const rig = aKernelRig([{ id: 'a', strategy }]);
    rig.market.next(aQuote(1, 100));
    rig.market.next(aQuote(2, 100));
    expect(rig.faults).toEqual([]);
    expect(rig.denials.map((d) => [d.check, d.reason])).toEqual([
      ['orderQty', 'placeOrder a-1: qty must be a positive number, got -0.115'],
      ['orderQty', 'placeOrder a-2: qty must be a positive number, got NaN'],
      ['orderPrice', 'limit order a-3 needs a positive price: price must be a positive number, got NaN'],
    ]);
    expect(rig.venue.submitted.map((c) => c.intent.ref)).toEqual(['a-4']);
  });
});
