import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { Order } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

/**
 * A kernel whose strategy `s` places a bid `s-1` at the first quote, which the venue does not
 * acknowledge yet, and cancels it at the second.
 */
function anUnackedBidCancelled() {
  const strategy = defineStrategy({
    name: 'unacked-cancel',
    params: z.object({}),
    onQuote: (ctx, quote) =>
      quote.ts === 1_000
        ? ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 100 })
        : quote.ts === 2_000
          ? ctx.order.cancel('s-1')
          : undefined,
  });
  const rig = aRecordingKernelRig([{ id: 's', strategy }], { gate: new RiskGate() });
  rig.market.next(aQuote(1_000, 100));
  rig.market.next(aQuote(2_000, 100));
  const order = () => rig.kernel.state.orders.byRef.get('s-1') as Order;
  return { ...rig, order };
}

describe('kernel: a cancel of an order the venue has not acknowledged yet', () => {
  it('shows the order PENDING_CANCEL from its acknowledgement until the venue answers the cancel', () => {
    const rig = anUnackedBidCancelled();
    expect(rig.port.submitted.map((c) => `${c.intent.kind} ${c.intent.ref}`)).toEqual([
      'placeOrder s-1',
      'cancelOrder s-2',
    ]);
    expect(rig.order().orderState).toBe('PENDING_NEW');
    rig.port.emit(anOrderUpdate(anOrder({ clientOrderId: 's-1', orderId: 'o-1', updateAt: 2_100 })));
    expect(rig.order().orderState).toBe('PENDING_CANCEL');
    rig.port.emit(
      anOrderUpdate(
        anOrder({ clientOrderId: 's-1', orderId: 'o-1', orderState: 'CANCELLED', updateAt: 2_200 }),
      ),
    );
    expect(rig.order().orderState).toBe('CANCELLED');
  });

  it('shows the venue’s word once the cancel is refused after the acknowledgement', () => {
    const rig = anUnackedBidCancelled();
    rig.port.emit(anOrderUpdate(anOrder({ clientOrderId: 's-1', orderId: 'o-1', updateAt: 2_100 })));
    rig.port.emit({
      kind: 'commandRejected',
      ts: 2_200,
      recvTs: 2_200,
      ref: 's-2',
      intentKind: 'cancelOrder',
      code: 429,
      message: 'too many requests',
    });
    expect(rig.order().orderState).toBe('OPEN');
  });

  it('leaves a fill that won on the order as the venue says', () => {
    const rig = anUnackedBidCancelled();
    rig.port.emit(
      anOrderUpdate(anOrder({ clientOrderId: 's-1', orderId: 'o-1', orderState: 'FILLED', updateAt: 2_100 })),
    );
    expect(rig.order().orderState).toBe('FILLED');
  });
});
