import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

// A Hummingbot port names its quotes after the strategy: id `pmm`, refs `pmm-bid-1`, `pmm-ask-1`.
describe('porting: a custom ref starting with the strategy id', () => {
  it('is not refused as "already used" the first time it is sent', () => {
    const rig = aKernelRig([
      {
        id: 'pmm',
        strategy: defineStrategy({
          name: 'pmm',
          params: z.object({}),
          onQuote: (ctx, q) =>
            q.ts === 1
              ? [ctx.order.postOnly({ sym: BTC, side: 'BUY', qty: 0.1, price: 90, ref: 'pmm-bid-1' })]
              : undefined,
        }),
      },
    ]);
    rig.market.next(aQuote(1, 100));
    // Never used before: either it goes out, or the denial says why (it looks like a generated ref).
    expect(rig.denials.map((d) => d.reason)).not.toContain(
      'reference pmm-bid-1 was already used in this run',
    );
    expect(rig.venue.orders.has('pmm-bid-1')).toBe(true);
  });
});
