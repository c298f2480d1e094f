import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FillsAwaitingOrder } from '../../../core/kernel/fills-awaiting-order.ts';
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
    awaiting.hold(aFill('t1', 'A'));
    awaiting.hold(aFill('t2', 'B'));
    awaiting.hold(aFill('t3', 'A'));
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
          for (const fill of fills) awaiting.hold(fill);
          const first = ids(awaiting.take(takenFirst));
          const rest = ['A', 'B', 'C'].flatMap((orderId) => ids(awaiting.take(orderId)));
          const recent = fills.slice(-kept);
          expect(first).toEqual(ids(recent.filter((f) => f.execution.orderId === takenFirst)));
          expect([...first, ...rest].sort()).toEqual(ids(recent).sort());
        },
      ),
    );
  });
});
