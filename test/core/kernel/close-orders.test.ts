import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { Order } from '../../../core/model/index.ts';
import { COMMAND_NOT_APPLIED, D } from '../../../core/model/index.ts';
import { aRecordingKernelRig, type RecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aPositionUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

/** Closes its BTC position on the quotes whose time it is given, and logs the orders it is told of. */
function closer(log: string[], closeAt: readonly number[]) {
  return defineStrategy({
    name: 'closer',
    params: z.object({}),
    onQuote: (ctx, quote) => (closeAt.includes(quote.ts) ? ctx.order.closePosition(BTC) : undefined),
    onOrder: (ctx, order) => {
      log.push(`${ctx.id} order ${order.clientOrderId} ${order.orderState}`);
    },
  });
}

/** alpha closes at 1, beta (when given times) at its own; both hold the 10 BTC long. */
function rig(log: string[], betaCloseAt?: readonly number[]): RecordingKernelRig {
  const slots = [{ id: 'alpha', strategy: closer(log, [1]) }];
  if (betaCloseAt !== undefined) slots.push({ id: 'beta', strategy: closer(log, betaCloseAt) });
  const r = aRecordingKernelRig(slots);
  r.port.emit(aPositionUpdate(0, '10'));
  return r;
}

/** The market close a venue makes for a close request that carries no reference (the paper venue's name). */
function closeOrder(overrides: Partial<Order> = {}): Order {
  return anOrder({
    orderId: 'v-close',
    clientOrderId: 'paper-close-2',
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

describe('kernel: the order a position close makes belongs to the strategy that closed', () => {
  it('tells the closing strategy of its close order (NEW, then FILLED) when the venue names it as it likes', () => {
    const log: string[] = [];
    const r = rig(log);
    r.market.next(aQuote(1, 100));
    expect(r.port.submitted.map((c) => c.intent.kind)).toEqual(['closePosition']);
    r.port.emit(anOrderUpdate(closeOrder()));
    r.port.emit(anOrderUpdate(closeOrder({ orderState: 'FILLED', executedQty: D(10), updateAt: 3 })));
    expect(log).toEqual(['alpha order paper-close-2 NEW', 'alpha order paper-close-2 FILLED']);
    expect(r.kernel.state.ownerOf('paper-close-2')).toBe('alpha');
  });

  it('claims one order per closed leg: a second reduce-only order on the sym is not the close’s', () => {
    const log: string[] = [];
    const r = rig(log);
    r.market.next(aQuote(1, 100));
    r.port.emit(anOrderUpdate(closeOrder()));
    r.port.emit(
      anOrderUpdate(closeOrder({ orderId: 'v-hand', clientOrderId: 'by-hand', createAt: 3, updateAt: 3 })),
    );
    expect(r.kernel.state.ownerOf('paper-close-2')).toBe('alpha');
    expect(r.kernel.state.ownerOf('by-hand')).toBeUndefined();
  });

  it('does not take an order that opens or adds to a position, or one on another sym', () => {
    const log: string[] = [];
    const r = rig(log);
    r.market.next(aQuote(1, 100));
    r.port.emit(anOrderUpdate(closeOrder({ clientOrderId: 'buy', side: 'BUY', reduceOnly: false })));
    r.port.emit(anOrderUpdate(closeOrder({ clientOrderId: 'eth', sym: 'BINANCE_PERP_ETH_USDT' })));
    r.port.emit(anOrderUpdate(closeOrder({ createAt: 3, updateAt: 3 })));
    expect(log).toEqual(['alpha order paper-close-2 NEW']);
    for (const ref of ['buy', 'eth']) expect(r.kernel.state.ownerOf(ref)).toBeUndefined();
  });

  it('waits through a report of the leg at its size (a mark price change)', () => {
    const log: string[] = [];
    const r = rig(log);
    r.market.next(aQuote(1, 100));
    r.port.emit(aPositionUpdate(2, '10', { markPrice: D(101) }));
    r.port.emit(anOrderUpdate(closeOrder({ createAt: 3, updateAt: 3 })));
    expect(r.kernel.state.ownerOf('paper-close-2')).toBe('alpha');
  });

  it('takes nothing after a report of the leg at another size (it was closed or changed otherwise)', () => {
    const log: string[] = [];
    const r = rig(log);
    r.market.next(aQuote(1, 100));
    r.port.emit(aPositionUpdate(2, '4'));
    r.port.emit(anOrderUpdate(closeOrder({ createAt: 3, updateAt: 3 })));
    expect(r.kernel.state.ownerOf('paper-close-2')).toBeUndefined();
  });

  it('takes nothing after the venue refused the close', () => {
    const log: string[] = [];
    const r = rig(log);
    r.market.next(aQuote(1, 100));
    const ref = r.port.submitted[0]?.intent.ref ?? '';
    r.port.emit({
      kind: 'commandRejected',
      ts: 2,
      recvTs: 2,
      ref,
      intentKind: 'closePosition',
      code: COMMAND_NOT_APPLIED,
      message: 'no position',
    });
    r.port.emit(anOrderUpdate(closeOrder({ createAt: 3, updateAt: 3 })));
    expect(r.kernel.state.ownerOf('paper-close-2')).toBeUndefined();
  });

  it('does not take an order carrying a reference a strategy of the run generated', () => {
    const log: string[] = [];
    const r = rig(log, []);
    r.market.next(aQuote(1, 100));
    r.port.emit(anOrderUpdate(closeOrder({ clientOrderId: 'beta-r0-7' })));
    expect(log).toEqual([]);
    expect(r.kernel.state.ownerOf('beta-r0-7')).toBeUndefined();
  });

  it('gives the order to neither when two strategies close the same NET position at once', () => {
    const log: string[] = [];
    const r = rig(log, [1]);
    r.market.next(aQuote(1, 100));
    expect(r.port.submitted.map((c) => c.strategyId)).toEqual(['alpha', 'beta']);
    r.port.emit(anOrderUpdate(closeOrder()));
    expect(log).toEqual([]);
    expect(r.kernel.state.ownerOf('paper-close-2')).toBeUndefined();
  });
});
