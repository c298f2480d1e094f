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

describe('kernel: a batch cancel of an acknowledged order and one the venue has not acknowledged yet', () => {
  /** `s` places s-1 (acknowledged at 1 500), s-2 at 2 000, and cancels both in one batch at 3 000. */
  function aMixedBatchCancel() {
    const strategy = defineStrategy({
      name: 'mixed-batch',
      params: z.object({}),
      onQuote: (ctx, quote) =>
        quote.ts === 1_000 || quote.ts === 2_000
          ? ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 100 })
          : quote.ts === 3_000
            ? ctx.order.cancelMany({ sym: BTC, targets: ['s-1', 's-2'] })
            : undefined,
    });
    const rig = aRecordingKernelRig([{ id: 's', strategy }], { gate: new RiskGate() });
    rig.market.next(aQuote(1_000, 100));
    rig.port.emit(anOrderUpdate(anOrder({ clientOrderId: 's-1', orderId: 'o-1', updateAt: 1_500 })));
    rig.market.next(aQuote(2_000, 100));
    rig.market.next(aQuote(3_000, 100));
    const order = (ref: string) => (rig.kernel.state.orders.byRef.get(ref) as Order).orderState;
    return { ...rig, order };
  }

  // The live adapter sends the acknowledged order's part at once and holds the other's until its
  // ack, both under the batch's reference: each order shows its part's progress.
  it('shows the acknowledged one PENDING_CANCEL at once, the other PENDING_NEW then PENDING_CANCEL from its ack', () => {
    const rig = aMixedBatchCancel();
    expect(rig.order('s-1')).toBe('PENDING_CANCEL');
    expect(rig.order('s-2')).toBe('PENDING_NEW');
    rig.port.emit(
      anOrderUpdate(
        anOrder({ clientOrderId: 's-1', orderId: 'o-1', orderState: 'CANCELLED', updateAt: 3_100 }),
      ),
    );
    expect(rig.order('s-1')).toBe('CANCELLED');
    expect(rig.order('s-2')).toBe('PENDING_NEW');
    rig.port.emit(anOrderUpdate(anOrder({ clientOrderId: 's-2', orderId: 'o-2', updateAt: 3_200 })));
    expect(rig.order('s-2')).toBe('PENDING_CANCEL');
    rig.port.emit(
      anOrderUpdate(
        anOrder({ clientOrderId: 's-2', orderId: 'o-2', orderState: 'CANCELLED', updateAt: 3_300 }),
      ),
    );
    expect(rig.order('s-2')).toBe('CANCELLED');
  });

  it('puts the other back to the venue’s word when its held part is refused after the first part went through', () => {
    const rig = aMixedBatchCancel();
    rig.port.emit(
      anOrderUpdate(
        anOrder({ clientOrderId: 's-1', orderId: 'o-1', orderState: 'CANCELLED', updateAt: 3_100 }),
      ),
    );
    rig.port.emit(anOrderUpdate(anOrder({ clientOrderId: 's-2', orderId: 'o-2', updateAt: 3_200 })));
    const batch = rig.port.submitted.find((c) => c.intent.kind === 'cancelOrders')?.intent.ref as string;
    rig.port.emit({
      kind: 'commandRejected',
      ts: 3_300,
      recvTs: 3_300,
      ref: batch,
      intentKind: 'cancelOrders',
      code: 429,
      message: 'too many requests',
    });
    expect(rig.order('s-1')).toBe('CANCELLED');
    expect(rig.order('s-2')).toBe('OPEN');
  });
});
