import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { Execution, ExecutionEvent, Order } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import { aRecordingKernelRig, type RecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aPositionUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

/** Closes its BTC position on the first quote and logs each order and fill with its closeRef. */
function closer(log: string[]) {
  return defineStrategy({
    name: 'close-ref-reader',
    params: z.object({}),
    state: () => ({ closed: false }),
    onQuote: (ctx) => {
      if (ctx.state.closed) return undefined;
      ctx.state.closed = true;
      const close = ctx.order.closePosition(BTC);
      log.push(`sent ${close.ref}`);
      return close;
    },
    onOrder: (ctx, order) => {
      const open = ctx.openOrders(BTC).find((o) => o.orderId === order.orderId);
      log.push(
        `order ${order.clientOrderId} ${order.orderState} closeRef ${order.closeRef} open ${open?.closeRef}`,
      );
    },
    onFill: (_ctx, fill) => {
      log.push(`fill ${fill.clientOrderId} closeRef ${fill.closeRef}`);
    },
  });
}

function rig(log: string[]): RecordingKernelRig {
  const r = aRecordingKernelRig([{ id: 'alpha', strategy: closer(log) }]);
  r.port.emit(aPositionUpdate(0, '10'));
  return r;
}

function closeOrder(clientOrderId: string, overrides: Partial<Order> = {}): Order {
  return anOrder({
    orderId: 'v-close',
    clientOrderId,
    side: 'SELL',
    orderType: 'MARKET',
    orderState: 'NEW',
    orderQty: D(10),
    limitPrice: D(0),
    reduceOnly: true,
    createAt: 2,
    updateAt: 2,
    ...overrides,
  });
}

function aCloseFill(clientOrderId: string, overrides: Partial<Execution> = {}): ExecutionEvent {
  const execution: Execution = {
    transactionId: 't-1',
    portfolioId: 'p',
    orderId: 'v-close',
    clientOrderId,
    sym: BTC,
    side: 'SELL',
    positionSide: 'NONE',
    quantity: D(10),
    price: D(100),
    fee: D(0),
    feeCoin: 'USDT',
    rebate: D(0),
    rpnl: D(0),
    execType: 'TAKER',
    timestamp: 3,
    ...overrides,
  };
  return { kind: 'execution', ts: 3, recvTs: 3, execution };
}

describe('kernel: a close’s order and fills carry the close’s reference (closeRef)', () => {
  it('stamps the order a venue named as it likes (paper, live) and its fills with the close’s ref', () => {
    const log: string[] = [];
    const r = rig(log);
    r.market.next(aQuote(1, 100));
    const ref = r.port.submitted[0]?.intent.ref;
    r.port.emit(anOrderUpdate(closeOrder('paper-close-2')));
    r.port.emit(aCloseFill('paper-close-2'));
    expect(log).toEqual([
      `sent ${ref}`,
      `order paper-close-2 NEW closeRef ${ref} open ${ref}`,
      `fill paper-close-2 closeRef ${ref}`,
    ]);
  });

  it('stamps the order a venue named after the close (Keel’s simulated venue) the same way', () => {
    const log: string[] = [];
    const r = rig(log);
    r.market.next(aQuote(1, 100));
    const ref = r.port.submitted[0]?.intent.ref ?? '';
    r.port.emit(anOrderUpdate(closeOrder(ref)));
    r.port.emit(aCloseFill(ref));
    expect(log).toEqual([
      `sent ${ref}`,
      `order ${ref} NEW closeRef ${ref} open ${ref}`,
      `fill ${ref} closeRef ${ref}`,
    ]);
  });

  it('leaves closeRef off the strategy’s other orders and fills', () => {
    const log: string[] = [];
    const r = rig(log);
    r.market.next(aQuote(1, 100));
    r.port.emit(anOrderUpdate(closeOrder('paper-close-2')));
    r.port.emit(anOrderUpdate(closeOrder('alpha-x-1', { orderId: 'v-other', reduceOnly: false })));
    expect(r.kernel.state.orders.byRef.get('alpha-x-1')?.closeRef).toBeUndefined();
  });
});
