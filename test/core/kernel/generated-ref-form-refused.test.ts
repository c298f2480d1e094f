import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

/** Places one post-only bid under the given reference on the first quote. */
const bidding = (ref: string) =>
  defineStrategy({
    name: 'mm',
    params: z.object({}),
    onQuote: (ctx, q) =>
      q.ts === 1 ? ctx.order.postOnly({ sym: BTC, side: 'BUY', qty: 0.1, price: 90, ref }) : undefined,
  });

function sent(ref: string, runId: string): boolean {
  const rig = aKernelRig([{ id: 'mm', strategy: bidding(ref) }], { runId });
  rig.market.next(aQuote(1, 100));
  return rig.venue.orders.has(ref);
}

// core/kernel/order-inputs.ts (OrderInputBase.ref) and strategies/README.md say which custom
// references have a generated form and are refused.
describe('a custom reference of a generated form', () => {
  it('tagged (mm-tk3x9a4f-7) is refused in the run of that tag only, as the ref docs say', () => {
    expect(sent('mm-tk3x9a4f-7', 'tk3x9a4f')).toBe(false);
    expect(sent('mm-tk3x9a4f-7', '')).toBe(true);
    expect(sent('mm-tk3x9a4f-7', 'r7')).toBe(true);
  });

  for (const runId of ['', 'r7'])
    it(`untagged (mm-7, mm-bid: all base 36 after the id) is refused in a run tagged '${runId}'`, () => {
      expect(sent('mm-7', runId)).toBe(false);
      expect(sent('mm-bid', runId)).toBe(false);
      expect(sent('mm-BID', runId)).toBe(true);
      expect(sent('mm-bid-1', runId)).toBe(true);
    });
});
