import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILL_AWAITING_ORDER_MS, FillsAwaitingOrder } from '../../../core/kernel/fills-awaiting-order.ts';
import type { ExecutionEvent } from '../../../core/model/index.ts';
import { anExecution } from '../../kit/execution-builders.ts';

function aFill(transactionId: string, orderId: string): ExecutionEvent {
  const execution = anExecution({
    side: 'BUY',
    quantity: '1',
    price: '100',
    timestamp: 1,
    transactionId,
    orderId,
    clientOrderId: '',
  });
  return { kind: 'execution', ts: 1, recvTs: 1, execution };
}

const ids = (fills: readonly ExecutionEvent[]) => fills.map((f) => f.execution.transactionId);

describe('FillsAwaitingOrder', () => {
  it('hands back the fills of an order in arrival order, once', () => {
    const awaiting = new FillsAwaitingOrder();
    awaiting.hold(aFill('t1', 'A'), 0);
    awaiting.hold(aFill('t2', 'B'), 0);
    awaiting.hold(aFill('t3', 'A'), 0);
    expect(ids(awaiting.take('A'))).toEqual(['t1', 't3']);
    expect(awaiting.take('A')).toEqual([]);
    expect(ids(awaiting.take('B'))).toEqual(['t2']);
  });

  it('holds the most recent `kept` fills, forgetting the oldest first', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.constantFrom('A', 'B', 'C'), { maxLength: 20 }),
        fc.constantFrom('A', 'B', 'C'),
        (kept, orders, takenFirst) => {
          const awaiting = new FillsAwaitingOrder(kept);
          const fills = orders.map((orderId, i) => aFill(`t${i}`, orderId));
          for (const fill of fills) awaiting.hold(fill, 0);
          const first = ids(awaiting.take(takenFirst));
          const rest = ['A', 'B', 'C'].flatMap((orderId) => ids(awaiting.take(orderId)));
          const recent = fills.slice(-kept);
          expect(first).toEqual(ids(recent.filter((f) => f.execution.orderId === takenFirst)));
          expect([...first, ...rest].sort()).toEqual(ids(recent).sort());
        },
      ),
    );
  });

  it('gives up the fills held longer than FILL_AWAITING_ORDER_MS before their order’s update', () => {
    const awaiting = new FillsAwaitingOrder();
    awaiting.hold(aFill('t1', 'A'), 1_000);
    awaiting.hold(aFill('t2', 'B'), 2_000);
    awaiting.hold(aFill('t3', 'A'), 5_000);
    expect(awaiting.oldestHeldAt()).toBe(1_000);
    expect(awaiting.expire(1_000 + FILL_AWAITING_ORDER_MS)).toEqual([]);
    const expired = awaiting.expire(2_000 + FILL_AWAITING_ORDER_MS);
    expect(expired.map((held) => [held.event.execution.transactionId, held.heldAt])).toEqual([['t1', 1_000]]);
    expect(awaiting.oldestHeldAt()).toBe(2_000);
    expect(ids(awaiting.take('B'))).toEqual(['t2']);
    expect(ids(awaiting.take('A'))).toEqual(['t3']);
    expect(awaiting.oldestHeldAt()).toBeUndefined();
  });

  it('hands back the fill a new one pushes out once `kept` are held', () => {
    const awaiting = new FillsAwaitingOrder(2);
    expect(awaiting.hold(aFill('t1', 'A'), 0)).toBeUndefined();
    expect(awaiting.hold(aFill('t2', 'B'), 0)).toBeUndefined();
    expect(awaiting.hold(aFill('t3', 'C'), 1)?.event.execution.transactionId).toBe('t1');
  });
});
