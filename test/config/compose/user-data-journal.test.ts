import { describe, expect, it } from 'vitest';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import { UserDataJournal } from '../../../config/compose/user-data-journal.ts';
import { D, type Execution, type Order, type UserEvent } from '../../../core/model/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { anExecution } from '../../kit/execution-builders.ts';
import { aMarketOrder } from '../../kit/intent-builders.ts';
import { anOrderUpdate } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

const fillEvent = (execution: Execution): UserEvent => ({ kind: 'execution', ts: 1, recvTs: 1, execution });

describe("a session's User Data journal", () => {
  it('counts a fill the venue pushed twice once: in its fills, its metrics and the onFill callback', async () => {
    const metrics = new RunMetrics(() => 0);
    const printed: string[] = [];
    // Fills of a strategy's orders: one of an order nobody owns and the journal has not seen waits for its update.
    const journal = new UserDataJournal(
      metrics,
      (fill) => printed.push(fill.transactionId),
      () => 'alpha',
    );
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
    expect(journal.fillCount).toBe(2);
    expect([...journal.finish().fills].map((f) => f.transactionId)).toEqual(['T-1', 'T-2']);
    expect(printed).toEqual(['T-1', 'T-2']);
    expect((await metrics.fills.get()).values[0]?.value).toBe(2);
  });

  it('keeps the newest state of an order when an older update arrives after it', () => {
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined);
    const open: Order = anOrder({ updateAt: 1_000 });
    const filled: Order = { ...open, orderState: 'FILLED', executedQty: D(1), updateAt: 2_000 };
    for (const order of [open, filled, open]) journal.observe(anOrderUpdate(order));
    expect(journal.openOrders().length).toBe(0);
    expect([...journal.finish().orders].map((o) => o.orderState)).toEqual(['FILLED']);
  });

  it('keeps one record of an order the adapter and the venue both report rejected', () => {
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined);
    const byAdapter: Order = anOrder({ orderId: '', orderState: 'REJECTED', reason: 'post-only' });
    const byVenue: Order = { ...byAdapter, orderId: 'SIM-7', updateAt: 1_001 };
    for (const order of [byAdapter, byVenue]) journal.observe(anOrderUpdate(order));
    expect(journal.finish().orders).toHaveLength(1);
    expect(journal.rejections.warning()).toMatch(/1 of the 1 orders|every order placed \(1 of 1\)/);
  });

  it("holds an order Keel declared REJECTED itself until the venue's word on it arrives, which replaces it", () => {
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined);
    const open: Order = anOrder({ clientOrderId: 'mm-1', updateAt: 1_000 });
    const declared: Order = { ...open, orderState: 'REJECTED', synthesized: true, updateAt: 2_000 };
    const filled: Order = { ...open, orderState: 'FILLED', executedQty: D(1), updateAt: 1_500 };
    journal.observe(anOrderUpdate(open));
    journal.observe(anOrderUpdate(declared));
    expect(journal.heldOrderCount).toBe(1);
    journal.observe(anOrderUpdate(filled));
    journal.observe(anOrderUpdate(open));
    expect(journal.heldOrderCount).toBe(0);
    expect([...journal.finish().orders].map((o) => o.orderState)).toEqual(['FILLED']);
  });

  it("names the strategy owning each order and fill, keeping it when a later update's owner is forgotten", () => {
    const owners = new Map([['mm-1', 'mm']]);
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined, (ref) => owners.get(ref));
    const open: Order = anOrder({ clientOrderId: 'mm-1', updateAt: 1_000 });
    journal.observe(anOrderUpdate(open));
    owners.clear();
    journal.observe(anOrderUpdate({ ...open, orderState: 'FILLED', executedQty: D(1), updateAt: 2_000 }));
    journal.observe(anOrderUpdate(anOrder({ clientOrderId: 'manual', orderId: 'O-9' })));
    owners.set('mm-1', 'mm');
    journal.observe(
      fillEvent(
        anExecution({
          clientOrderId: 'mm-1',
          transactionId: 'T-1',
          side: 'BUY',
          quantity: '1',
          price: '100',
          timestamp: 3_000,
        }),
      ),
    );
    const { orders, fills } = journal.finish();
    expect([...orders].map((o) => [o.clientOrderId, o.orderState, o.strategyId])).toEqual([
      ['mm-1', 'FILLED', 'mm'],
      ['manual', 'OPEN', undefined],
    ]);
    expect([...fills].map((f) => f.strategyId)).toEqual(['mm']);
  });

  it('keeps every algo order with its steps, ignoring a duplicate and a late update after it fired', () => {
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined, () => 'brk');
    const placed = anAlgoOrder({ clientAlgoOrderId: 'stop', updateAt: 1_000 });
    const moved = { ...placed, triggerPrice: D(95), updateAt: 2_000 };
    const fired = { ...moved, state: 'TRIGGERED' as const, orderId: 'O-7', updateAt: 3_000 };
    for (const algo of [placed, placed, moved, fired, { ...moved, updateAt: 4_000 }])
      journal.observe(anAlgoOrderUpdate(algo));
    const algoOrders = [...journal.finish().algoOrders];
    const [record] = algoOrders;
    expect(algoOrders).toHaveLength(1);
    expect(record).toMatchObject({ state: 'TRIGGERED', orderId: 'O-7', strategyId: 'brk', createAt: 1_000 });
    expect(record?.steps.map((s) => [s.ts, s.state, s.triggerPrice.toFixed()])).toEqual([
      [1_000, 'NEW', '90'],
      [2_000, 'NEW', '95'],
      [3_000, 'TRIGGERED', '95'],
    ]);
  });

  it('lists the intents the kernel denied, with the sym the intent named', () => {
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined);
    journal.denied({
      kind: 'denied',
      strategyId: 'pairs',
      ref: 'btc-1',
      intentKind: 'placeOrder',
      intent: aMarketOrder({ ref: 'btc-1', sym: 'BINANCE_PERP_BTC_USDT' }),
      source: 'risk',
      check: 'submitRate',
      reason: "placeOrder btc-1 refused: strategy pairs's submit rate of 4 per 1000 ms is used up",
      ts: 5_000,
    });
    journal.denied({
      kind: 'denied',
      strategyId: 'pairs',
      ref: 'loan-1',
      intentKind: 'borrow',
      source: 'venue',
      check: 'venue.400001',
      reason: 'the venue refused borrow loan-1',
      ts: 6_000,
    });
    expect([...journal.finish().denials]).toEqual([
      {
        ts: 5_000,
        strategyId: 'pairs',
        intentKind: 'placeOrder',
        ref: 'btc-1',
        sym: 'BINANCE_PERP_BTC_USDT',
        source: 'risk',
        check: 'submitRate',
        reason: "placeOrder btc-1 refused: strategy pairs's submit rate of 4 per 1000 ms is used up",
      },
      {
        ts: 6_000,
        strategyId: 'pairs',
        intentKind: 'borrow',
        ref: 'loan-1',
        source: 'venue',
        check: 'venue.400001',
        reason: 'the venue refused borrow loan-1',
      },
    ]);
  });

  it('marks an algo order TRIGGERED when the order it sent arrives naming it, the venue pushing no algo updates', () => {
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined, () => 'brk');
    journal.observe(
      anAlgoOrderUpdate(anAlgoOrder({ algoOrderId: 'A-7', clientAlgoOrderId: 'stop', updateAt: 1_000 })),
    );
    journal.observe(
      anOrderUpdate(
        anOrder({ orderId: 'O-8', clientOrderId: 'stop-trig', algoOrderId: 'A-7', createAt: 5_000 }),
      ),
    );
    journal.observe(
      anOrderUpdate(anOrder({ orderId: 'O-9', clientOrderId: 'other', algoOrderId: 'A-unknown' })),
    );
    const algoOrders = [...journal.finish().algoOrders];
    const [record] = algoOrders;
    expect(algoOrders).toHaveLength(1);
    expect(record).toMatchObject({ state: 'TRIGGERED', orderId: 'O-8', updateAt: 5_000, strategyId: 'brk' });
    expect(record?.steps.map((s) => [s.ts, s.state])).toEqual([
      [1_000, 'NEW'],
      [5_000, 'TRIGGERED'],
    ]);
  });
});
