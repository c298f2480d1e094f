import { describe, expect, it } from 'vitest';
import { D, type Order } from '../../../core/model/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, BTC, ETH } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** An order placed by hand on the venue, without a clientOrderId. */
const byHand = (orderId: string, overrides: Partial<Order> = {}): Order =>
  anOrder({ orderId, clientOrderId: '', sym: BTC, orderState: 'OPEN', ...overrides });

describe('kernel: orders placed on the venue without a clientOrderId', () => {
  it('keeps each one apart, by its orderId: open orders, open-order counts, fills and cancels reach the right one', async () => {
    const rig = aRecordingKernelRig([], { strategiesAfter: Promise.resolve() });
    rig.port.emit(anOrderUpdate(byHand('m1'), 1_000));
    rig.port.emit(anOrderUpdate(byHand('m2', { side: 'SELL', limitPrice: D('120') }), 1_000));
    await settle();
    const state = rig.kernel.state;
    expect(state.openOrders().map((o) => o.orderId)).toEqual(['m1', 'm2']);
    expect([...state.openOrdersOn(BTC)].map((o) => o.orderId)).toEqual(['m1', 'm2']);
    expect({ all: state.countOpenOrders(), btc: state.countOpenOrders({ sym: BTC }) }).toEqual({
      all: 2,
      btc: 2,
    });

    rig.port.emit(
      anOrderUpdate(
        byHand('m1', { orderState: 'PARTIALLY_FILLED', executedQty: D('0.4'), updateAt: 2_000 }),
        2_000,
      ),
    );
    rig.port.emit(anOrderUpdate(byHand('m2', { orderState: 'CANCELLED', updateAt: 2_000 }), 2_000));
    await settle();
    expect(state.openOrders().map((o) => `${o.orderId} ${o.orderState} ${o.executedQty.toFixed()}`)).toEqual([
      'm1 PARTIALLY_FILLED 0.4',
    ]);
    expect(state.countOpenOrders({ sym: BTC })).toBe(1);
    expect(state.orderByRef('')).toBeUndefined();
  });

  it('moves one to another sym without touching the other, and leaves orders with a reference keyed by it', async () => {
    const rig = aRecordingKernelRig([], { strategiesAfter: Promise.resolve() });
    rig.port.emit(anOrderUpdate(byHand('m1'), 1_000));
    rig.port.emit(anOrderUpdate(byHand('m2'), 1_000));
    rig.port.emit(anOrderUpdate(anOrder({ orderId: 'k1', clientOrderId: 'k-1', sym: BTC }), 1_000));
    rig.port.emit(anOrderUpdate(byHand('m2', { sym: ETH, updateAt: 2_000 }), 2_000));
    await settle();
    const state = rig.kernel.state;
    expect({
      btc: [...state.openOrdersOn(BTC)].map((o) => o.orderId),
      eth: [...state.openOrdersOn(ETH)].map((o) => o.orderId),
    }).toEqual({ btc: ['m1', 'k1'], eth: ['m2'] });
    expect(state.orderByRef('k-1')?.orderId).toBe('k1');
  });
});
