import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

describe('kernel: a cancel of an order that was never sent', () => {
  it('says no order of that reference was sent, not that the reference names no strategy of the run', () => {
    const strategy = defineStrategy({
      name: 'os',
      params: z.object({}),
      onQuote: (ctx, quote) =>
        quote.ts === 1
          ? // 'entry' is base 36: the form of a generated reference, so refused (kernel.ref)
            ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: 90, ref: 'os-entry' })
          : ctx.order.cancel('os-rest'),
    });
    const rig = aKernelRig([{ id: 'os', strategy }]);
    rig.market.next(aQuote(1, 100));
    rig.market.next(aQuote(2, 100));
    expect(rig.denials.map((d) => [d.check, d.reason])).toEqual([
      ['kernel.ref', expect.stringContaining('os-entry has the form of')],
      [
        'kernel.ownership',
        'no order os-rest was sent in this run (was its placement denied, or never returned or submitted?), so strategy os has no such order to change',
      ],
    ]);
  });
});
