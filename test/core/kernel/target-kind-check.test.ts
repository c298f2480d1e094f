import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

/**
 * Places algo order `mx-ALGO` and limit order `mx-LIMIT` on the first quote, then on the second
 * names each with the other kind's call: cancel and modify the algo order, cancelAlgo and
 * replaceAlgo the order.
 */
const mixup = defineStrategy({
  name: 'mixup',
  params: z.object({}),
  onQuote: (ctx, quote) =>
    quote.ts === 1
      ? [
          ctx.order.algo({
            sym: BTC,
            side: 'BUY',
            qty: 1,
            condition: 'GTE',
            triggerPrice: 200,
            ref: 'mx-ALGO',
          }),
          ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 90, ref: 'mx-LIMIT' }),
        ]
      : [
          ctx.order.cancel('mx-ALGO'),
          ctx.order.modify('mx-ALGO', { price: 1 }),
          ctx.order.cancelAlgo('mx-LIMIT'),
          ctx.order.replaceAlgo('mx-LIMIT', { triggerPrice: 1 }),
        ],
});

describe('kernel: a reference of the wrong kind', () => {
  it.each([
    ['sent and not answered yet', false],
    ['acknowledged by the venue', true],
  ])('denies each call naming the other kind (%s) as kernel.targetKind, with the call to use', (_, acked) => {
    const rig = aRecordingKernelRig([{ id: 'mx', strategy: mixup }]);
    rig.market.next(aQuote(1, 100));
    if (acked)
      rig.port.emit(
        anAlgoOrderUpdate(anAlgoOrder({ clientAlgoOrderId: 'mx-ALGO', sym: BTC, createAt: 1, updateAt: 1 })),
      );
    rig.market.next(aQuote(2, 100));
    expect(
      rig.denials.map((d) => `${d.intentKind} ${d.check}: ${d.reason.replace(/^\S+ \S+: /, '')}`),
    ).toEqual([
      'cancelOrder kernel.targetKind: mx-ALGO is an algo order: use ctx.order.cancelAlgo',
      'modifyOrder kernel.targetKind: mx-ALGO is an algo order: use ctx.order.replaceAlgo',
      'cancelAlgoOrder kernel.targetKind: mx-LIMIT is an order, not an algo order: use ctx.order.cancel',
      'replaceAlgoOrder kernel.targetKind: mx-LIMIT is an order, not an algo order: use ctx.order.modify',
    ]);
    expect(rig.port.submitted.map((c) => c.intent.kind)).toEqual(['placeAlgoOrder', 'placeOrder']);
  });
});
