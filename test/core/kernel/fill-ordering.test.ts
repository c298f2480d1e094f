import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { anExecution } from '../../kit/execution-builders.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aPositionUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';

describe('onFill fires before the order and position reflect the fill (as its TSDoc says)', () => {
  it('shows the order still open and the old position in onFill, and the completed order in onOrder FILLED', () => {
    const log: string[] = [];
    const seen = (ctx: {
      openOrders(): readonly { orderState: string }[];
      position(sym: string): { positionQty: { toFixed(): string } } | undefined;
    }) =>
      `open [${ctx.openOrders().map((o) => o.orderState)}] position ${ctx.position(BTC)?.positionQty.toFixed() ?? 'none'}`;
    const strategy = defineStrategy({
      name: 'fill-watcher',
      params: z.object({}),
      onQuote: (ctx) => ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 100 }),
      onFill: (ctx, fill) => {
        log.push(`fill ${fill.quantity.toFixed()}: ${seen(ctx)}`);
      },
      onOrder: (ctx, order) => {
        log.push(`order ${order.orderState}: ${seen(ctx)}`);
      },
    });
    const { kernel, venue } = aKernelRig([{ id: 'w', strategy, params: {} }]);
    kernel.push(aQuote(5, 100, 101));
    const placed = venue.orders.get('w-1');
    if (placed === undefined) throw new Error('the strategy placed no order w-1');
    kernel.push({
      kind: 'execution',
      ts: 10,
      recvTs: 10,
      execution: anExecution({
        side: 'BUY',
        quantity: '1',
        price: '100',
        timestamp: 10,
        clientOrderId: 'w-1',
        orderId: placed.orderId,
      }),
    });
    kernel.push(
      anOrderUpdate({
        ...placed,
        orderState: 'FILLED',
        executedQty: placed.orderQty,
        action: 'FILL',
        updateAt: 10,
      }),
    );
    kernel.push(aPositionUpdate(10, '1'));
    kernel.stop();
    expect(log).toEqual([
      'order OPEN: open [OPEN] position none',
      'fill 1: open [OPEN] position none',
      'order FILLED: open [] position none',
    ]);
  });
});
