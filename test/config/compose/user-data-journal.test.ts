import { describe, expect, it } from 'vitest';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import { UserDataJournal } from '../../../config/compose/user-data-journal.ts';
import { D, type Execution, type Order, type UserEvent } from '../../../core/model/index.ts';
import { anExecution } from '../../kit/execution-builders.ts';
import { anOrderUpdate } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

const fillEvent = (execution: Execution): UserEvent => ({ kind: 'execution', ts: 1, recvTs: 1, execution });

describe("a session's User Data journal", () => {
  it('counts a fill the venue pushed twice once: in its fills, its metrics and the onFill callback', async () => {
    const metrics = new RunMetrics(() => 0);
    const printed: string[] = [];
    const journal = new UserDataJournal(metrics, (fill) => printed.push(fill.transactionId));
    const first = anExecution({
      side: 'BUY',
      quantity: '1',
      price: '100',
      timestamp: 1,
      transactionId: 'T-1',
    });
    const second = anExecution({
      side: 'BUY',
      quantity: '1',
      price: '101',
      timestamp: 2,
      transactionId: 'T-2',
    });
    for (const fill of [first, first, second, first, second]) journal.observe(fillEvent(fill));
    expect(journal.fills.map((f) => f.transactionId)).toEqual(['T-1', 'T-2']);
    expect(printed).toEqual(['T-1', 'T-2']);
    expect((await metrics.fills.get()).values[0]?.value).toBe(2);
  });

  it('keeps the newest state of an order when an older update arrives after it', () => {
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined);
    const open: Order = anOrder({ updateAt: 1_000 });
    const filled: Order = { ...open, orderState: 'FILLED', executedQty: D(1), updateAt: 2_000 };
    for (const order of [open, filled, open]) journal.observe(anOrderUpdate(order));
    expect(journal.orderList().map((o) => o.orderState)).toEqual(['FILLED']);
    expect(journal.openOrderCount()).toBe(0);
  });

  it('keeps one record of an order the adapter and the venue both report rejected', () => {
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined);
    const byAdapter: Order = anOrder({ orderId: '', orderState: 'REJECTED', reason: 'post-only' });
    const byVenue: Order = { ...byAdapter, orderId: 'SIM-7', updateAt: 1_001 };
    for (const order of [byAdapter, byVenue]) journal.observe(anOrderUpdate(order));
    expect(journal.orderList()).toHaveLength(1);
    expect(journal.rejections.warning()).toMatch(/1 of the 1 orders|every order placed \(1 of 1\)/);
  });
});
