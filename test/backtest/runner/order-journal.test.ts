import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ORDER_CODEC } from '../../../backtest/report/index.ts';
import { OrderJournal } from '../../../backtest/runner/index.ts';
import { D, type Order } from '../../../core/model/index.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { arbitraryOrderLifecycle } from '../../kit/order-update-arbitraries.ts';
import { spillDirectoriesDisposedAfterEach } from '../../kit/temp-dirs.ts';

const aSpillDirectory = spillDirectoriesDisposedAfterEach('keel-test-journal-');
/** A journal writing its files from the first order unless told otherwise, so its window and runs are exercised. */
function aJournal(options: { window?: number; runLines?: number; keepInMemory?: number } = {}): OrderJournal {
  return new OrderJournal(aSpillDirectory(), { keepInMemory: 0, ...options });
}

/** What the runner kept before the journal: a Map of each order's latest update, in creation order. */
function latestByCreation(updates: readonly Order[]): Order[] {
  const latest = new Map<string, Order>();
  for (const u of updates) latest.set(u.orderId, u);
  return [...latest.values()];
}

const encoded = (orders: Iterable<Order>): string[] => Array.from(orders, (o) => ORDER_CODEC.encode(o));

/** Several order lifecycles delivered interleaved, each in its own order. */
const interleavedLifecycles = fc
  .array(arbitraryOrderLifecycle(), { minLength: 1, maxLength: 12 })
  .chain((lifecycles) => {
    const tagged = lifecycles.map((updates, i) =>
      updates.map((u) => ({ ...u, orderId: `o-${i}`, clientOrderId: `c-${i}` })),
    );
    const picks = tagged.flatMap((updates, i) => updates.map(() => i));
    return fc.shuffledSubarray(picks, { minLength: picks.length, maxLength: picks.length }).map((order) => {
      const next = tagged.map(() => 0);
      return order.map((i) => {
        const at = next[i] ?? 0;
        next[i] = at + 1;
        return (tagged[i] as Order[])[at] as Order;
      });
    });
  });

describe('order journal', () => {
  it('gives every order in its last state, in creation order, however the orders interleave and finish, held or written', () => {
    fc.assert(
      fc.property(
        interleavedLifecycles,
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 14 }),
        (updates, window, runLines, keepInMemory) => {
          const journal = aJournal({ window, runLines, keepInMemory });
          for (const u of updates) journal.update(u);
          const orders = journal.finish();
          expect(orders.length).toBe(latestByCreation(updates).length);
          expect(encoded(orders)).toEqual(encoded(latestByCreation(updates)));
          expect(encoded(orders)).toEqual(encoded(orders));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('holds only open orders: a finished order leaves memory at once', () => {
    const journal = aJournal();
    journal.update(anOrder({ orderId: 'a', orderState: 'NEW' }));
    journal.update(anOrder({ orderId: 'b', orderState: 'NEW' }));
    expect(journal.openCount).toBe(2);
    journal.update(anOrder({ orderId: 'b', orderState: 'FILLED', executedQty: D(1) }));
    expect(journal.openCount).toBe(1);
    const orders = [...journal.finish()];
    expect(orders.map((o) => [o.orderId, o.orderState])).toEqual([
      ['a', 'NEW'],
      ['b', 'FILLED'],
    ]);
  });

  it('replaces a finished order with an update arriving after its final one, keeping its place', () => {
    const journal = aJournal({ window: 1, runLines: 1 });
    journal.update(anOrder({ orderId: 'a', orderState: 'NEW' }));
    journal.update(anOrder({ orderId: 'b', orderState: 'NEW' }));
    journal.update(anOrder({ orderId: 'a', orderState: 'CANCELLED' }));
    journal.update(anOrder({ orderId: 'a', orderState: 'CANCELLED', reason: 'late echo', updateAt: 2_000 }));
    journal.update(anOrder({ orderId: 'b', orderState: 'FILLED' }));
    const orders = [...journal.finish()];
    expect(orders.map((o) => [o.orderId, o.orderState, o.reason])).toEqual([
      ['a', 'CANCELLED', 'late echo'],
      ['b', 'FILLED', undefined],
    ]);
  });

  it('writes orders once, in creation order, when they finish in creation order', () => {
    const journal = aJournal({ window: 4 });
    for (let i = 0; i < 100; i++) {
      journal.update(anOrder({ orderId: `o-${i}`, orderState: 'NEW' }));
      if (i >= 3) journal.update(anOrder({ orderId: `o-${i - 3}`, orderState: 'FILLED' }));
    }
    const orders = [...journal.finish()];
    expect(journal.lateCount).toBe(0);
    expect(orders.map((o) => o.orderId)).toEqual(Array.from({ length: 100 }, (_, i) => `o-${i}`));
  });

  it('sets a long-resting order aside instead of holding back everything created after it', () => {
    const journal = aJournal({ window: 10 });
    journal.update(anOrder({ orderId: 'resting', orderState: 'OPEN' }));
    for (let i = 0; i < 1000; i++) {
      journal.update(anOrder({ orderId: `o-${i}`, orderState: 'NEW' }));
      journal.update(anOrder({ orderId: `o-${i}`, orderState: 'CANCELLED' }));
    }
    expect(journal.openCount).toBe(1);
    journal.update(anOrder({ orderId: 'resting', orderState: 'FILLED' }));
    const orders = [...journal.finish()];
    expect(journal.lateCount).toBe(1);
    expect(orders.map((o) => o.orderId)).toEqual([
      'resting',
      ...Array.from({ length: 1000 }, (_, i) => `o-${i}`),
    ]);
    expect(orders[0]!.orderState).toBe('FILLED');
  });

  it('sorts thousands of orders finishing in reverse through several merged runs', () => {
    const journal = aJournal({ window: 50, runLines: 700 });
    const n = 5000;
    for (let i = 0; i < n; i++) journal.update(anOrder({ orderId: `o-${i}`, orderState: 'NEW' }));
    for (let i = n - 1; i >= 0; i--) journal.update(anOrder({ orderId: `o-${i}`, orderState: 'CANCELLED' }));
    const orders = journal.finish();
    expect(orders.length).toBe(n);
    let i = 0;
    for (const o of orders) {
      expect([o.orderId, o.orderState]).toEqual([`o-${i}`, 'CANCELLED']);
      i++;
    }
    expect(i).toBe(n);
  });

  it("holds a short run's orders as they are, and gives them as a written journal would", () => {
    const updates = [
      anOrder({ orderId: 'a', orderState: 'NEW' }),
      anOrder({ orderId: 'b', orderState: 'NEW' }),
      anOrder({ orderId: 'b', orderState: 'FILLED', executedQty: D(1) }),
      anOrder({ orderId: 'b', orderState: 'FILLED', executedQty: D(1), reason: 'late echo' }),
    ];
    const held = aJournal({ keepInMemory: 10 });
    const written = aJournal();
    for (const u of updates) {
      held.update(u, 's1');
      written.update(u, 's1');
    }
    const heldOrders = held.finish();
    const writtenOrders = written.finish();
    expect(heldOrders.length).toBe(2);
    expect([...heldOrders]).toEqual([...writtenOrders]);
    expect(encoded(heldOrders)).toEqual(encoded(writtenOrders));
  });
});
