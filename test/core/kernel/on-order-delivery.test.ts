import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

/**
 * What the kernel delivers to `onOrder`: the execution adapter's order updates (the venue's, and
 * those Keel synthesized there: a place acknowledgement that came before the venue's own update,
 * an order Keel ended itself), never the kernel's in-flight placeholders.
 * A strategy that places a bid `s-1` at the first quote and cancels it at the second, noting what
 * `onOrder` hears and what `ctx.openOrders()` shows at each quote.
 */
function aBidThenCancel() {
  const heard: string[] = [];
  const shown: string[] = [];
  const strategy = defineStrategy({
    name: 'on-order-delivery',
    params: z.object({}),
    onQuote: (ctx, quote) => {
      shown.push(...ctx.openOrders().map((o) => o.orderState));
      if (quote.ts === 1_000) return ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 100 });
      if (quote.ts === 2_000) return ctx.order.cancel('s-1');
      return undefined;
    },
    onOrder: (_ctx, order) => {
      heard.push(`${order.orderState}${order.synthesized === true ? ' synthesized' : ''}`);
    },
  });
  const rig = aRecordingKernelRig([{ id: 's', strategy }], { gate: new RiskGate() });
  return { rig, heard, shown };
}

const venueNew = (synthesized?: true) =>
  anOrderUpdate(
    anOrder({
      clientOrderId: 's-1',
      orderId: 'o-1',
      orderState: 'NEW',
      updateAt: 1_100,
      ...(synthesized ? { synthesized } : {}),
    }),
  );

describe('onOrder delivery', () => {
  it("hears the venue's states only: Keel's in-flight PENDING_NEW and PENDING_CANCEL show in ctx.openOrders(), never in onOrder", () => {
    const { rig, heard, shown } = aBidThenCancel();
    rig.market.next(aQuote(1_000, 100));
    rig.market.next(aQuote(1_050, 100));
    rig.port.emit(venueNew());
    rig.market.next(aQuote(2_000, 100));
    rig.market.next(aQuote(3_000, 100));
    expect(shown).toEqual(['PENDING_NEW', 'NEW', 'PENDING_CANCEL']);
    rig.port.emit(
      anOrderUpdate(
        anOrder({ clientOrderId: 's-1', orderId: 'o-1', orderState: 'CANCELLED', updateAt: 3_100 }),
      ),
    );
    expect(heard).toEqual(['NEW', 'CANCELLED']);
  });

  // The live adapter drops an acknowledgement that comes after the venue's first update of the
  // order (order-placement.ts: settled by then): only this order of arrival yields two NEWs.
  it("hears NEW twice when the adapter's acknowledgement (synthesized) comes before the venue's own update of the order", () => {
    const { rig, heard } = aBidThenCancel();
    rig.market.next(aQuote(1_000, 100));
    rig.port.emit(venueNew(true));
    rig.port.emit(venueNew());
    expect(heard).toEqual(['NEW synthesized', 'NEW']);
  });
});
