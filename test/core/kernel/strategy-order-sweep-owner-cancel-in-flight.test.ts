import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cancelStrategyOrders, defineStrategy } from '../../../core/kernel/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

/** Strategy `a` rests a bid `a-1` (acknowledged at 6) and cancels it itself at the quote of 7. */
function aStrategyCancellingItsBid() {
  const strategy = defineStrategy({
    name: 'resting',
    params: z.object({}),
    onQuote: (ctx, quote) => {
      if (quote.ts === 5) return [ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 90 })];
      if (quote.ts === 7) return [ctx.order.cancel('a-1')];
      return undefined;
    },
  });
  const rig = aRecordingKernelRig([{ id: 'a', strategy }], { gate: new RiskGate() });
  rig.market.next(aQuote(5, 100));
  rig.port.emit(
    anOrderUpdate(
      anOrder({
        clientOrderId: 'a-1',
        orderId: 'o-1',
        limitPrice: rig.kernel.state.orders.byRef.get('a-1')?.limitPrice,
        updateAt: 6,
      }),
    ),
  );
  rig.market.next(aQuote(7, 100));
  const ownCancel = rig.port.submitted.at(-1)?.intent.ref ?? '';
  const stateOf = (ref: string) => rig.kernel.state.orders.byRef.get(ref)?.orderState;
  return { ...rig, ownCancel, stateOf };
}

describe('a sweep of an order whose owner’s own cancel is in flight (commit review, session 30)', () => {
  it('cancels it too, so a refusal of the owner’s cancel leaves no order working that no strategy manages', () => {
    const rig = aStrategyCancellingItsBid();
    expect(rig.stateOf('a-1')).toBe('PENDING_CANCEL');
    // The strategy faults (or the kill switch trips) while its cancel travels: the sweep.
    expect(cancelStrategyOrders(rig.kernel, ['a'], 'keel-fault-1')).toBe(1);
    expect(rig.port.submitted.at(-1)?.intent).toEqual({
      kind: 'cancelOrders',
      ref: 'keel-fault-1-1',
      sym: BTC,
      targets: ['a-1'],
    });
    // The venue refuses the strategy's own cancel (rate limited): the sweep's is still on its way.
    rig.port.emit({
      kind: 'commandRejected',
      ts: 8,
      recvTs: 8,
      ref: rig.ownCancel,
      intentKind: 'cancelOrder',
      code: -1003,
      message: 'too many requests',
    });
    expect(rig.stateOf('a-1')).toBe('PENDING_CANCEL');
  });

  it('does not cancel it a third time in a later sweep while the first sweep’s cancel travels', () => {
    const rig = aStrategyCancellingItsBid();
    cancelStrategyOrders(rig.kernel, ['a'], 'keel-fault-1');
    const sent = rig.port.submitted.length;
    expect(cancelStrategyOrders(rig.kernel, ['a'], 'keel-halt-2')).toBe(0);
    expect(rig.port.submitted.length).toBe(sent);
  });
});
