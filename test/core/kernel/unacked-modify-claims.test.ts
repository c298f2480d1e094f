import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StrategyContext } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { Intent, Order } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate, type RiskLimitsInput } from '../../../core/risk/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

type Ctx = StrategyContext<unknown, unknown>;

/**
 * A kernel whose strategy `s` places a bid `s-1` (BUY 1 at 100) at the first quote, which the
 * venue does not acknowledge yet, and at each later quote sends what `act` returns.
 */
function anUnackedBid(limits: RiskLimitsInput, act: (ctx: Ctx, quoteTs: number) => Intent | undefined) {
  const strategy = defineStrategy({
    name: 'unacked-bid',
    params: z.object({}),
    onQuote: (ctx, quote) =>
      quote.ts === 1_000
        ? ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 100 })
        : act(ctx, quote.ts),
  });
  const rig = aRecordingKernelRig([{ id: 's', strategy }], { gate: new RiskGate({ limits }) });
  rig.market.next(aQuote(1_000, 100));
  const sent = () => rig.port.submitted.map((c) => `${c.intent.kind} ${c.intent.ref}`);
  const order = () => rig.kernel.state.orders.byRef.get('s-1') as Order;
  return { ...rig, sent, order };
}

const secondBid = (ctx: Ctx) => ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 100 });

describe('kernel: a modify of an order the venue has not acknowledged yet', () => {
  it('claims its larger qty for maxPositionQty until the venue answers', () => {
    const rig = anUnackedBid({ maxPositionQty: '3' }, (ctx, ts) =>
      ts === 2_000 ? ctx.order.modify('s-1', { qty: 3 }) : secondBid(ctx),
    );
    rig.market.next(aQuote(2_000, 100));
    expect(rig.order().orderState).toBe('PENDING_NEW');
    // s-1 may fill 3 once the modify lands: one more bid would make a position of 4.
    rig.market.next(aQuote(3_000, 100));
    expect(rig.denials.map((d) => `${d.ref} ${d.check}`)).toEqual(['s-3 maxPosition']);
    // The acknowledgement is on the placed terms: the modify is still unanswered.
    rig.port.emit(anOrderUpdate(anOrder({ clientOrderId: 's-1', orderId: 'o-1', updateAt: 3_100 })));
    expect(rig.order().orderState).toBe('PENDING_REPLACE');
    expect(rig.kernel.state.inFlightModifyQty(rig.order())?.toFixed()).toBe('3');
    rig.market.next(aQuote(4_000, 100));
    expect(rig.denials.map((d) => d.ref)).toEqual(['s-3', 's-4']);
    // The venue's amendment answers it: the claim ends at the new qty.
    const amended = anOrder({ clientOrderId: 's-1', orderId: 'o-1', orderQty: D(3), updateAt: 4_100 });
    rig.port.emit(anOrderUpdate({ ...amended, action: 'AMEND_COMPLETED' }));
    expect(rig.order().orderState).toBe('OPEN');
    expect(rig.kernel.state.inFlightModifyQty(rig.order())).toBeUndefined();
  });

  it('claims its higher price for maxGrossExposure until the venue refuses it', () => {
    const rig = anUnackedBid({ maxGrossExposure: '300' }, (ctx, ts) =>
      ts === 2_000 ? ctx.order.modify('s-1', { price: 250 }) : secondBid(ctx),
    );
    rig.market.next(aQuote(2_000, 100));
    rig.market.next(aQuote(3_000, 100));
    expect(rig.denials.map((d) => `${d.ref} ${d.check}`)).toEqual(['s-3 maxGrossExposure']);
    rig.port.emit({
      kind: 'commandRejected',
      ts: 3_100,
      recvTs: 3_100,
      ref: 's-2',
      intentKind: 'modifyOrder',
      code: 400001,
      message: 'refused',
    });
    expect(rig.order().orderState).toBe('PENDING_NEW');
    rig.market.next(aQuote(4_000, 100));
    expect(rig.sent()).toEqual(['placeOrder s-1', 'modifyOrder s-2', 'placeOrder s-4']);
  });

  it('claims a higher price of an acknowledged order too', () => {
    const rig = anUnackedBid({ maxGrossExposure: '300' }, (ctx, ts) =>
      ts === 2_000 ? ctx.order.modify('s-1', { price: 250 }) : secondBid(ctx),
    );
    rig.port.emit(anOrderUpdate(anOrder({ clientOrderId: 's-1', orderId: 'o-1', updateAt: 1_100 })));
    rig.market.next(aQuote(2_000, 100));
    expect(rig.order().orderState).toBe('PENDING_REPLACE');
    rig.market.next(aQuote(3_000, 100));
    expect(rig.denials.map((d) => `${d.ref} ${d.check}`)).toEqual(['s-3 maxGrossExposure']);
  });

  it('lets the acknowledgement on new terms stand: the modify was applied first', () => {
    const rig = anUnackedBid({}, (ctx, ts) =>
      ts === 2_000 ? ctx.order.modify('s-1', { qty: 3 }) : undefined,
    );
    rig.market.next(aQuote(2_000, 100));
    rig.port.emit(
      anOrderUpdate(anOrder({ clientOrderId: 's-1', orderId: 'o-1', orderQty: D(3), updateAt: 2_100 })),
    );
    expect(rig.order().orderState).toBe('OPEN');
    expect(rig.kernel.state.inFlightModifyQty(rig.order())).toBeUndefined();
  });
});
