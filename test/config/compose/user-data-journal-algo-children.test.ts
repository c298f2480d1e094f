import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EARLY_ALGO_CHILDREN_WAIT_MS } from '../../../config/compose/early-algo-children.ts';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import { UserDataJournal } from '../../../config/compose/user-data-journal.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D, type UserEvent } from '../../../core/model/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { anExecution } from '../../kit/execution-builders.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anAccountUpdate, anOrderUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';

const stopPlacer = defineStrategy({
  name: 'stop-placer',
  params: z.object({}),
  onQuote: (ctx, quote) =>
    quote.ts === 1
      ? ctx.order.algo({ sym: BTC, side: 'SELL', qty: 1, triggerPrice: 90, condition: 'LTE', ref: 'stop-1' })
      : undefined,
});

/**
 * A session's journal names the strategy of each order and fill in the results, asking the kernel
 * (it sees each event just before the kernel does, as a venue session subscribes it first). The
 * order a strategy's stop sent, reported with no reference (the venue links it by algoOrderId
 * only), and its fill were recorded with no strategy: the journal asked the kernel for the owner of
 * reference '' and not of the order.
 */
/**
 * A kernel with strategy alpha, its stop placed, and a journal fed each event just before the
 * kernel, its holds timed on `timer` when given.
 */
function aSession(timer?: ReturnType<typeof fakeTimer>) {
  const rig = aRecordingKernelRig([{ id: 'alpha', strategy: stopPlacer }]);
  const journal = new UserDataJournal(
    new RunMetrics(() => 0),
    undefined,
    (ref) => rig.kernel.state.ownerOf(ref),
    timer === undefined ? {} : { timer },
  );
  rig.market.next(aQuote(1, 100));
  return {
    journal,
    push(event: UserEvent) {
      journal.observe(event);
      rig.port.emit(event);
    },
  };
}

const stop = anAlgoOrder({ algoOrderId: 'A-9', clientAlgoOrderId: 'stop-1', createAt: 2, updateAt: 2 });

/** The order the stop sent (no reference, it names the stop by algoOrderId), filled. */
const fired = anOrderUpdate(
  anOrder({
    orderId: 'v9',
    clientOrderId: '',
    side: 'SELL',
    orderType: 'MARKET',
    orderState: 'FILLED',
    executedQty: D(1),
    limitPrice: D(0),
    algoOrderId: 'A-9',
    createAt: 3,
    updateAt: 3,
  }),
);

const fill: UserEvent = {
  kind: 'execution',
  ts: 3,
  recvTs: 3,
  execution: anExecution({
    side: 'SELL',
    quantity: '1',
    price: '90',
    timestamp: 3,
    transactionId: 'x-9',
    orderId: 'v9',
    clientOrderId: '',
  }),
};

function recorded(journal: UserDataJournal): string[][] {
  const done = journal.finish();
  const result = [
    ...[...done.orders].map((o) => ['order', o.orderId, String(o.strategyId)]),
    ...[...done.fills].map((f) => ['fill', f.transactionId, String(f.strategyId)]),
  ];
  journal.dispose();
  return result;
}

/**
 * A session's journal names the strategy of each order and fill in the results, asking the kernel
 * (it sees each event just before the kernel does, as a venue session subscribes it first). The
 * order a strategy's stop sent, reported with no reference (the venue links it by algoOrderId
 * only), and its fill were recorded with no strategy: the journal asked the kernel for the owner of
 * reference '' and not of the order, and when they came before the stop's place reply (the socket
 * is faster than REST) nobody could name the owner yet.
 */
describe("a session's journal: the order a stop sent, with no reference", () => {
  it('records the order and its fill as the stop’s strategy’s', () => {
    const { journal, push } = aSession();
    push(anAlgoOrderUpdate(stop));
    push(fired);
    push(fill);
    expect(recorded(journal)).toEqual([
      ['order', 'v9', 'alpha'],
      ['fill', 'x-9', 'alpha'],
    ]);
  });

  it('records them as the stop’s strategy’s when they came before the stop’s place reply', () => {
    const { journal, push } = aSession();
    push(fired);
    push(fill);
    push(anAlgoOrderUpdate(stop));
    push(anAlgoOrderUpdate({ ...stop, state: 'TRIGGERED', orderId: 'v9', updateAt: 3 }));
    expect(journal.fillCount).toBe(1);
    expect(recorded(journal)).toEqual([
      ['order', 'v9', 'alpha'],
      ['fill', 'x-9', 'alpha'],
    ]);
  });

  it('records them with no strategy, not never, when no algo order they name is reported', () => {
    const { journal, push } = aSession();
    push(fired);
    push(fill);
    expect(recorded(journal)).toEqual([
      ['order', 'v9', 'undefined'],
      ['fill', 'x-9', 'undefined'],
    ]);
  });

  it('records them with no strategy once they waited longer than the wait for the algo order', () => {
    const { journal, push } = aSession();
    push(fired);
    push(fill);
    push(anAccountUpdate(3 + EARLY_ALGO_CHILDREN_WAIT_MS + 1, '1000'));
    expect(journal.fillCount).toBe(1);
  });
});

/** A fill of another order, at `ts`. */
function otherFill(ts: number): UserEvent {
  return {
    kind: 'execution',
    ts,
    recvTs: ts,
    execution: anExecution({
      side: 'BUY',
      quantity: '1',
      price: '90',
      timestamp: ts,
      transactionId: 'x-other',
      orderId: 'v-other',
      clientOrderId: '',
    }),
  };
}

/**
 * The venue's Trades and Orders channels are not ordered with each other: a fill may come before
 * its order's first update. The journal recorded such a fill at once, with the owner known then
 * (none, for the order a stop sent), while its order was then recorded as the stop's strategy's.
 */
describe("a session's journal: a fill that came before its order's first update", () => {
  it('is recorded as the strategy its order update names', () => {
    const { journal, push } = aSession();
    push(anAlgoOrderUpdate(stop));
    push(fill);
    push(fired);
    expect(recorded(journal)).toEqual([
      ['order', 'v9', 'alpha'],
      ['fill', 'x-9', 'alpha'],
    ]);
  });

  it('waits with its order for the stop’s place reply when both came before it', () => {
    const { journal, push } = aSession();
    push(fill);
    push(fired);
    push(anAlgoOrderUpdate(stop));
    expect(recorded(journal)).toEqual([
      ['order', 'v9', 'alpha'],
      ['fill', 'x-9', 'alpha'],
    ]);
  });

  it('is recorded with no strategy after the wait when its order never comes', async () => {
    const timer = fakeTimer(0);
    const { journal, push } = aSession(timer);
    push(fill);
    expect(journal.fillCount).toBe(0);
    await timer.advance(EARLY_ALGO_CHILDREN_WAIT_MS + 1);
    expect(journal.fillCount).toBe(1);
  });
});

/**
 * The wait for an algo order ended only at the next User Data event, and what it held was
 * recorded after that event: in a quiet account a held fill was written late, and after fills
 * that came after it.
 */
describe("a session's journal: the end of the wait for an algo order", () => {
  it('records what waited once the wait is over, with no event to wake it', async () => {
    const timer = fakeTimer(0);
    const { journal, push } = aSession(timer);
    push(fired);
    push(fill);
    await timer.advance(EARLY_ALGO_CHILDREN_WAIT_MS);
    expect(journal.fillCount).toBe(0);
    await timer.advance(2);
    expect(journal.fillCount).toBe(1);
    expect(recorded(journal)).toEqual([
      ['order', 'v9', 'undefined'],
      ['fill', 'x-9', 'undefined'],
    ]);
  });

  it('records what waited before the later event that ends the wait', () => {
    const { journal, push } = aSession();
    push(fired);
    push(fill);
    push(otherFill(3 + EARLY_ALGO_CHILDREN_WAIT_MS + 1));
    const fills = [...journal.finish().fills].map((f) => f.transactionId);
    journal.dispose();
    expect(fills).toEqual(['x-9', 'x-other']);
  });
});
