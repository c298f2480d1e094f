import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StrategyContext } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { Intent, Order } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { arbitraryScrambledLifecycle } from '../../kit/order-update-arbitraries.ts';

type Ctx = StrategyContext<unknown, unknown>;

/**
 * A kernel on a port that answers nothing by itself, with one strategy `s` that sends, at each
 * quote, what `script` gives for the quote's time, and notes every order update it hears.
 */
function aScriptedRig(script: (ctx: Ctx, ts: number) => Intent | undefined) {
  const heard: string[] = [];
  const strategy = defineStrategy({
    name: 'scripted',
    params: z.object({}),
    onQuote: (ctx, quote) => script(ctx, quote.ts),
    onOrder: (_ctx, order) => {
      heard.push(`${order.clientOrderId} ${order.orderState}`);
    },
  });
  const rig = aRecordingKernelRig([{ id: 's', strategy }]);
  const venueSays = (order: Order) => rig.port.emit(anOrderUpdate(order));
  const stateOf = (ref: string) => rig.kernel.state.orderByRef(ref);
  return { ...rig, heard, venueSays, stateOf };
}

/** Bids `c-1` at the quote of t=1000 and, when given, sends `then` at the quote of t=2000. */
const bidThen =
  (then?: (ctx: Ctx) => Intent) =>
  (ctx: Ctx, ts: number): Intent | undefined =>
    ts === 1_000
      ? ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 100, ref: 'c-1' })
      : ts === 2_000
        ? then?.(ctx)
        : undefined;

describe("kernel: an order's life, from Keel's placeholder to the venue's final word", () => {
  it('holds a new order PENDING_NEW until the venue acknowledges it, then finds it by both ids', () => {
    const rig = aScriptedRig(bidThen());
    rig.market.next(aQuote(1_000, 100));
    expect(rig.stateOf('c-1')?.orderState).toBe('PENDING_NEW');
    expect(rig.kernel.state.orders.ownerOf('c-1')).toBe('s');
    rig.venueSays(anOrder({ orderState: 'NEW', orderId: 'o-1', updateAt: 1_001 }));
    expect(rig.stateOf('c-1')?.orderState).toBe('NEW');
    expect(rig.kernel.state.orders.orderById('o-1')?.clientOrderId).toBe('c-1');
    expect(rig.heard).toEqual(['c-1 NEW']);
  });

  it("holds PENDING_CANCEL until the venue's word, and shows the final state once it comes", () => {
    const rig = aScriptedRig(bidThen((ctx) => ctx.order.cancel('c-1')));
    rig.market.next(aQuote(1_000, 100));
    rig.venueSays(anOrder({ orderState: 'OPEN', updateAt: 1_001 }));
    rig.market.next(aQuote(2_000, 100));
    expect(rig.stateOf('c-1')?.orderState).toBe('PENDING_CANCEL');
    // The venue's accept echo answers nothing yet: the order stays in flight, its action telling the cancel is under way.
    rig.venueSays(anOrder({ orderState: 'OPEN', action: 'CANCEL_PENDING', updateAt: 2_001 }));
    expect(rig.stateOf('c-1')).toMatchObject({ orderState: 'PENDING_CANCEL', action: 'CANCEL_PENDING' });
    rig.venueSays(anOrder({ orderState: 'CANCELLED', updateAt: 2_002 }));
    expect(rig.stateOf('c-1')?.orderState).toBe('CANCELLED');
    expect(rig.kernel.state.openOrders()).toEqual([]);
  });

  it('holds PENDING_REPLACE until the venue confirms the amendment', () => {
    const rig = aScriptedRig(bidThen((ctx) => ctx.order.modify('c-1', { price: 99 })));
    rig.market.next(aQuote(1_000, 100));
    rig.venueSays(anOrder({ orderState: 'OPEN', updateAt: 1_001 }));
    rig.market.next(aQuote(2_000, 100));
    expect(rig.stateOf('c-1')?.orderState).toBe('PENDING_REPLACE');
    rig.venueSays(
      anOrder({ orderState: 'OPEN', limitPrice: D('99'), action: 'AMEND_COMPLETED', updateAt: 2_001 }),
    );
    expect(rig.stateOf('c-1')?.orderState).toBe('OPEN');
    expect(rig.stateOf('c-1')?.limitPrice.toFixed()).toBe('99');
  });

  it('tells the strategy each update once: a duplicate, a stale one or a late copy of a final one changes nothing', () => {
    const rig = aScriptedRig(bidThen());
    rig.market.next(aQuote(1_000, 100));
    const partial = anOrder({ orderState: 'PARTIALLY_FILLED', executedQty: D('0.5'), updateAt: 1_005 });
    rig.venueSays(partial);
    rig.venueSays({ ...partial });
    rig.venueSays(anOrder({ orderState: 'OPEN', updateAt: 1_001 }));
    const filled = anOrder({ orderState: 'FILLED', executedQty: D(1), updateAt: 2_000 });
    rig.venueSays(filled);
    rig.venueSays({ ...filled });
    rig.venueSays(anOrder({ orderState: 'OPEN', updateAt: 1_500 }));
    expect(rig.heard).toEqual(['c-1 PARTIALLY_FILLED', 'c-1 FILLED']);
    expect(rig.stateOf('c-1')?.orderState).toBe('FILLED');
    expect(rig.kernel.state.openOrders()).toEqual([]);
  });

  it('adopts a venue order it never sent, without an owner, and tells no strategy', () => {
    const rig = aScriptedRig(() => undefined);
    rig.venueSays(anOrder({ clientOrderId: 'web-1', orderId: 'o-9' }));
    expect(rig.kernel.state.orders.orderById('o-9')?.clientOrderId).toBe('web-1');
    expect(rig.kernel.state.orders.ownerOf('web-1')).toBeUndefined();
    expect(rig.heard).toEqual([]);
  });

  it('property: ends on the last valid venue update whatever order and duplication they arrive in', () => {
    fc.assert(
      fc.property(arbitraryScrambledLifecycle(), ({ valid, delivered }) => {
        const rig = aScriptedRig(bidThen());
        rig.market.next(aQuote(1_000, 100));
        for (const update of delivered) rig.venueSays(update);
        expect(rig.stateOf('c-1')).toEqual(valid[valid.length - 1]);
      }),
    );
  });
});
