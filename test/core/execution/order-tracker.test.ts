import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderTracker } from '../../../core/execution/index.ts';
import { D } from '../../../core/model/index.ts';
import { approved } from '../../kit/approved-intents.ts';
import { aLimitOrder } from '../../kit/intent-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { arbitraryScrambledLifecycle } from '../../kit/order-update-arbitraries.ts';
import { aRecordingPort } from '../../kit/recording-execution-port.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

function placed(tracker: OrderTracker, ref = 'c-1', now = 1000): void {
  tracker.onSubmitted(approved(aLimitOrder({ ref })), now);
}

describe('order tracker', () => {
  it('holds a new order PENDING_NEW until the venue acknowledges it, then finds it by both ids', () => {
    const tracker = new OrderTracker();
    placed(tracker);
    expect(tracker.byClientOrderId('c-1')?.orderState).toBe('PENDING_NEW');
    expect(tracker.ownerOf('c-1')).toBe('s1');
    const acked = tracker.onOrderUpdate(anOrder({ orderState: 'NEW', orderId: 'o-1' }));
    expect(acked?.orderState).toBe('NEW');
    expect(tracker.byOrderId('o-1')?.clientOrderId).toBe('c-1');
    expect(tracker.inFlight('c-1')).toBeUndefined();
  });

  it('holds PENDING_CANCEL through the venue CANCEL_PENDING echo until the final state', () => {
    const tracker = new OrderTracker();
    placed(tracker);
    tracker.onOrderUpdate(anOrder({ orderState: 'OPEN', updateAt: 1001 }));
    const [pending] = tracker.onSubmitted(
      approved({ kind: 'cancelOrder', ref: 'x1', target: 'c-1', sym: BTC }),
      1002,
    );
    expect(pending?.orderState).toBe('PENDING_CANCEL');
    const echo = tracker.onOrderUpdate(
      anOrder({ orderState: 'OPEN', action: 'CANCEL_PENDING', updateAt: 1003 }),
    );
    expect(echo?.orderState).toBe('PENDING_CANCEL');
    expect(tracker.onOrderUpdate(anOrder({ orderState: 'CANCELLED', updateAt: 1004 }))?.orderState).toBe(
      'CANCELLED',
    );
    expect(tracker.openOrders()).toEqual([]);
  });

  it('holds PENDING_REPLACE until AMEND_COMPLETED', () => {
    const tracker = new OrderTracker();
    placed(tracker);
    tracker.onOrderUpdate(anOrder({ orderState: 'OPEN', updateAt: 1001 }));
    tracker.onSubmitted(
      approved({ kind: 'modifyOrder', ref: 'm1', target: 'c-1', sym: BTC, price: D('99') }),
      1002,
    );
    expect(tracker.byClientOrderId('c-1')?.orderState).toBe('PENDING_REPLACE');
    const done = tracker.onOrderUpdate(
      anOrder({ orderState: 'OPEN', limitPrice: D('99'), action: 'AMEND_COMPLETED', updateAt: 1003 }),
    );
    expect(done?.orderState).toBe('OPEN');
    expect(done?.limitPrice.toFixed()).toBe('99');
  });

  it('reports duplicates and stale updates as no change', () => {
    const tracker = new OrderTracker();
    placed(tracker);
    const partial = anOrder({ orderState: 'PARTIALLY_FILLED', executedQty: D('0.5'), updateAt: 1005 });
    expect(tracker.onOrderUpdate(partial)).toBeDefined();
    expect(tracker.onOrderUpdate({ ...partial })).toBeUndefined();
    expect(tracker.onOrderUpdate(anOrder({ orderState: 'OPEN', updateAt: 1001 }))).toBeUndefined();
  });

  it('adopts a venue order it never sent, without an owner', () => {
    const tracker = new OrderTracker();
    tracker.onOrderUpdate(anOrder({ clientOrderId: 'web-1', orderId: 'o-9' }));
    expect(tracker.byOrderId('o-9')?.clientOrderId).toBe('web-1');
    expect(tracker.ownerOf('web-1')).toBeUndefined();
  });

  it('cancels all of a strategy’s open orders on a sym when cancelOrders has no targets', () => {
    const tracker = new OrderTracker();
    placed(tracker, 'a');
    placed(tracker, 'b');
    tracker.onSubmitted(approved(aLimitOrder({ ref: 'c' }), 's2'), 1000);
    const changed = tracker.onSubmitted(approved({ kind: 'cancelOrders', ref: 'all', sym: BTC }), 1001);
    expect(changed.map((o) => `${o.clientOrderId}:${o.orderState}`)).toEqual([
      'a:PENDING_CANCEL',
      'b:PENDING_CANCEL',
    ]);
  });

  it('looks an unanswered order up by caller reference at its deadline and never re-sends it', async () => {
    const tracker = new OrderTracker({ ackTimeoutMs: 2000 });
    const port = aRecordingPort();
    placed(tracker, 'c-1', 1000);
    expect(tracker.nextDeadline()).toBe(3000);
    expect(await tracker.checkTimeouts(port, 2999)).toEqual([]);
    expect(port.lookups).toEqual([]);
    port.venueOrders.set('c-1', anOrder({ orderState: 'OPEN', orderId: 'o-1', updateAt: 1500 }));
    const events = await tracker.checkTimeouts(port, 3000);
    expect(port.lookups).toEqual([`${BTC}|c-1`]);
    expect(port.submitted).toEqual([]);
    expect(events.map((e) => e.order.orderState)).toEqual(['OPEN']);
    expect(tracker.nextDeadline()).toBeUndefined();
  });

  it('rejects a new order the venue never saw, after the lookup finds nothing', async () => {
    const tracker = new OrderTracker({ ackTimeoutMs: 2000 });
    const port = aRecordingPort();
    placed(tracker);
    const [event] = await tracker.checkTimeouts(port, 3000);
    expect(event?.order.orderState).toBe('REJECTED');
    expect(event?.order.reason).toMatch(/never arrived/);
    expect(port.submitted).toEqual([]);
  });

  it('keeps a cancel the venue still shows open in flight for maxLookups lookups, then shows the venue state', async () => {
    const tracker = new OrderTracker({ ackTimeoutMs: 100, maxLookups: 2 });
    const port = aRecordingPort();
    placed(tracker);
    tracker.onOrderUpdate(anOrder({ orderState: 'OPEN', updateAt: 1001 }));
    tracker.onSubmitted(approved({ kind: 'cancelOrder', ref: 'x1', target: 'c-1', sym: BTC }), 1100);
    port.venueOrders.set('c-1', anOrder({ orderState: 'OPEN', updateAt: 1001 }));
    await tracker.checkTimeouts(port, 1200);
    expect(tracker.byClientOrderId('c-1')?.orderState).toBe('PENDING_CANCEL');
    expect(tracker.nextDeadline()).toBe(1300);
    const [event] = await tracker.checkTimeouts(port, 1300);
    expect(event?.order.orderState).toBe('OPEN');
    expect(port.lookups).toHaveLength(2);
  });

  it('forgets the oldest final orders beyond retainFinal, keeps every open one, and lists only open ones', () => {
    const tracker = new OrderTracker({ retainFinal: 2 });
    placed(tracker, 'open');
    tracker.onOrderUpdate(anOrder({ clientOrderId: 'open', orderId: 'o-0', orderState: 'OPEN' }));
    for (let i = 1; i <= 4; i++) {
      placed(tracker, `c-${i}`);
      tracker.onOrderUpdate(anOrder({ clientOrderId: `c-${i}`, orderId: `o-${i}`, orderState: 'OPEN' }));
      tracker.onOrderUpdate(
        anOrder({
          clientOrderId: `c-${i}`,
          orderId: `o-${i}`,
          orderState: 'FILLED',
          executedQty: D(1),
          updateAt: 2000,
        }),
      );
    }
    expect(tracker.byClientOrderId('c-1')).toBeUndefined();
    expect(tracker.byOrderId('o-2')).toBeUndefined();
    expect(tracker.ownerOf('c-2')).toBeUndefined();
    expect(tracker.byClientOrderId('c-3')?.orderState).toBe('FILLED');
    expect(tracker.byOrderId('o-4')?.clientOrderId).toBe('c-4');
    expect(tracker.byOrderId('o-0')?.orderState).toBe('OPEN');
    expect(tracker.openOrders().map((o) => o.clientOrderId)).toEqual(['open']);
    expect(tracker.nextDeadline()).toBeUndefined();
  });

  it('still absorbs a late duplicate of a final order it remembers', () => {
    const tracker = new OrderTracker({ retainFinal: 1 });
    placed(tracker);
    const filled = anOrder({ orderId: 'o-1', orderState: 'FILLED', executedQty: D(1), updateAt: 2000 });
    tracker.onOrderUpdate(filled);
    expect(tracker.onOrderUpdate({ ...filled })).toBeUndefined();
    expect(
      tracker.onOrderUpdate(anOrder({ orderId: 'o-1', orderState: 'OPEN', updateAt: 1500 })),
    ).toBeUndefined();
    expect(tracker.openOrders()).toEqual([]);
  });

  it('clears an in-flight cancel the venue refused', () => {
    const tracker = new OrderTracker();
    placed(tracker);
    tracker.onOrderUpdate(anOrder({ orderState: 'OPEN', updateAt: 1001 }));
    tracker.onSubmitted(approved({ kind: 'cancelOrder', ref: 'x1', target: 'c-1', sym: BTC }), 1002);
    expect(tracker.onRequestRejected('x1')?.orderState).toBe('OPEN');
    expect(tracker.onRequestRejected('unknown')).toBeUndefined();
  });

  it('ends on the last valid venue update whatever order and duplication they arrive in', () => {
    fc.assert(
      fc.property(arbitraryScrambledLifecycle(), ({ valid, delivered }) => {
        const tracker = new OrderTracker();
        placed(tracker);
        for (const update of delivered) tracker.onOrderUpdate(update);
        expect(tracker.byClientOrderId('c-1')).toEqual(valid[valid.length - 1]);
        expect(tracker.inFlight('c-1')).toBeUndefined();
      }),
    );
  });
});
