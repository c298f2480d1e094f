import { z } from 'zod';
import { defineStrategy } from '../../core/kernel/index.ts';
import type { Intent } from '../../core/model/index.ts';
import { RiskGate } from '../../core/risk/index.ts';
import { aRecordingKernelRig } from './kernel-builders.ts';
import { aQuote, BTC } from './kernel-events.ts';

/**
 * A kernel whose strategy `a` rests a bid `a-1` (BUY 1 at 90) and a stop `a-2` (SELL 1, trigger 80)
 * at the first quote (ts 5), neither acknowledged yet: the orders a sweep finds.
 * @returns the rig, what was sent after the two placements, and an order's state by ref
 */
export function aRestingStrategyRig() {
  const strategy = defineStrategy({
    name: 'resting',
    params: z.object({}),
    onQuote: (ctx, quote) =>
      quote.ts === 5
        ? [
            ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 90 }),
            ctx.order.algo({ sym: BTC, side: 'SELL', qty: 1, triggerPrice: 80, condition: 'LTE', price: 0 }),
          ]
        : undefined,
  });
  const rig = aRecordingKernelRig([{ id: 'a', strategy }], { gate: new RiskGate() });
  rig.market.next(aQuote(5, 100));
  const sent = (): Intent[] => rig.port.submitted.slice(2).map((c) => c.intent);
  const stateOf = (ref: string) => rig.kernel.state.orders.byRef.get(ref)?.orderState;
  return { ...rig, sent, stateOf };
}
