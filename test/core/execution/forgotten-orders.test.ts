import { describe, expect, it } from 'vitest';
import {
  forgottenOrders,
  forgottenOrdersWarning,
  reconcile,
  UNKNOWN_ORDER_REASON,
} from '../../../core/execution/index.ts';
import type { Order, UserEvent } from '../../../core/model/index.ts';
import { anOrder } from '../../kit/order-builders.ts';

const TS = Date.UTC(2026, 10, 28, 12);
const orderEvent = (order: Order): UserEvent => ({ kind: 'order', ts: TS, recvTs: TS, order });
const emptySnapshot = { ts: TS, openOrders: [], openAlgoOrders: [], positions: [], assets: [] };

describe('orders the venue forgot', () => {
  it('are the acknowledged open orders a reconciliation ended because the venue neither lists nor knows them', async () => {
    const acked = anOrder({ clientOrderId: 'acked', orderState: 'OPEN' });
    const inFlight = anOrder({ clientOrderId: 'in-flight', orderState: 'PENDING_NEW', orderId: '' });
    const corrections = await reconcile(
      { openOrders: [acked, inFlight], positions: [], assets: [] },
      emptySnapshot,
      { lookupOrder: async () => undefined, lookupAlgoOrder: async () => undefined },
    );
    expect(forgottenOrders(corrections).map((order) => order.clientOrderId)).toEqual(['acked']);
  });

  it('leave out an order the venue answered for, and a CANCELLED that Keel did not make up', () => {
    const venueCancelled = anOrder({ orderState: 'CANCELLED', reason: UNKNOWN_ORDER_REASON });
    const otherSynthesized = anOrder({ orderState: 'CANCELLED', synthesized: true, reason: 'shutdown' });
    expect(forgottenOrders([orderEvent(venueCancelled), orderEvent(otherSynthesized)])).toEqual([]);
  });

  it('are named in one sentence, the first five by reference', () => {
    const orders = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((ref) => anOrder({ clientOrderId: ref }));
    expect(forgottenOrdersWarning(orders, TS)).toBe(
      'the venue did not know 7 orders it had acknowledged (a, b, c, d, e and 2 more) at the reconciliation of ' +
        '2026-11-28T12:00:00.000Z: it may have lost its state (restarted without its data?); ' +
        "Keel marked them CANCELLED and took the venue's positions and balances as they are",
    );
    expect(forgottenOrdersWarning(orders.slice(0, 1), TS)).toMatch(
      /^the venue did not know 1 order it had acknowledged \(a\) at/,
    );
  });
});
