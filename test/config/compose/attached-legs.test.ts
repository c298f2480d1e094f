import { describe, expect, it } from 'vitest';
import type { OrderRecord } from '../../../backtest/report/index.ts';
import {
  type AlgoOrderHistory,
  AttachedLegLookups,
  type VenueAlgoOrders,
} from '../../../config/compose/attached-legs.ts';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import { UserDataJournal } from '../../../config/compose/user-data-journal.ts';
import { type AlgoOrder, D, type Order } from '../../../core/model/index.ts';
import { anAlgoOrder } from '../../kit/algo-order-builders.ts';
import { anOrderUpdate } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { spillDirectoriesDisposedAfterEach } from '../../kit/temp-dirs.ts';

const aSpillDirectory = spillDirectoriesDisposedAfterEach('keel-test-attached-legs-');

const TP = { triggerPrice: D(110), triggerType: 'LastPrice' as const, price: D(0) };
const SL = { triggerPrice: D(90), triggerType: 'LastPrice' as const, price: D(0) };

/** A BUY entry carrying tp and sl, in the state given. */
const entry = (overrides: Partial<Order> = {}): Order =>
  anOrder({
    orderId: 'O-1',
    clientOrderId: 'brk-1',
    tp: TP,
    sl: SL,
    createAt: 1_000,
    updateAt: 1_000,
    ...overrides,
  });

const leg = (id: string, overrides: Partial<AlgoOrder> = {}): AlgoOrder =>
  anAlgoOrder({
    algoOrderId: id,
    clientAlgoOrderId: '',
    algoOrderType: 'TP_SL',
    attachedOrderId: 'O-1',
    createAt: 2_000,
    updateAt: 2_000,
    ...overrides,
  });

/** A venue asked only for its history (a leg asked for by id fails the lookup). */
const onlyHistory = (history: AlgoOrderHistory): VenueAlgoOrders => ({
  history,
  byId: (id) => Promise.reject(new Error(`asked for ${id} by id`)),
});

/** A venue history answering from a list (newest first, as the venue pages it), counting what was read. */
function historyOf(entries: readonly AlgoOrder[], asked: string[]): AlgoOrderHistory {
  return async function* (sym, begin) {
    asked.push(`${sym} from ${begin}`);
    for (const algo of entries) yield algo;
  };
}

describe("a session's take-profit / stop-loss legs", () => {
  it('asks the venue once an entry carrying tp / sl ends with fills, and lists its legs in creation order, owned by its strategy', async () => {
    const asked: string[] = [];
    const history = historyOf(
      [
        leg('A-9', { updateAt: 9_000, state: 'CANCELLED', triggerPrice: D(110), conditionType: 'GTE' }),
        leg('A-other', { attachedOrderId: 'O-7' }),
        leg('A-8', { updateAt: 8_000, state: 'TRIGGERED', orderId: 'O-3' }),
      ],
      asked,
    );
    let lookups: AttachedLegLookups | undefined;
    const journal = new UserDataJournal(
      new RunMetrics(() => 0),
      undefined,
      (ref) => (ref === 'brk-1' ? 'brk' : undefined),
      {
        dir: aSpillDirectory(),
        onAttachedParentEnded: (parent) => lookups?.parentEnded(parent),
      },
    );
    lookups = new AttachedLegLookups(journal, onlyHistory(history), () => {});
    journal.observe(anOrderUpdate(entry({ orderState: 'OPEN' })));
    journal.observe(
      anOrderUpdate(entry({ orderState: 'PARTIALLY_FILLED', executedQty: D('0.5'), updateAt: 1_100 })),
    );
    expect(asked).toEqual([]);
    const filled = entry({ orderState: 'FILLED', executedQty: D(1), updateAt: 1_200 });
    journal.observe(anOrderUpdate(filled));
    // The same final state pushed again asks nothing more.
    journal.observe(anOrderUpdate(filled));
    await lookups.pending();
    expect(asked).toEqual(['BINANCE_PERP_BTC_USDT from 1000']);
    const listed = [...journal.finish().algoOrders];
    expect(listed.map((a) => [a.algoOrderId, a.state, a.orderId, a.attachedOrderId, a.strategyId])).toEqual([
      ['A-8', 'TRIGGERED', 'O-3', 'O-1', 'brk'],
      ['A-9', 'CANCELLED', undefined, 'O-1', 'brk'],
    ]);
    // Only what the venue reported: one step each, no NEW the session never saw.
    expect(listed.map((a) => a.steps.map((s) => s.state))).toEqual([['TRIGGERED'], ['CANCELLED']]);
  });

  it('asks nothing for an entry without tp / sl, or one that ended without a fill', async () => {
    const asked: string[] = [];
    let lookups: AttachedLegLookups | undefined;
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined, undefined, {
      dir: aSpillDirectory(),
      onAttachedParentEnded: (parent) => lookups?.parentEnded(parent),
    });
    lookups = new AttachedLegLookups(journal, onlyHistory(historyOf([], asked)), () => {});
    journal.observe(anOrderUpdate(anOrder({ orderId: 'O-5', orderState: 'FILLED', executedQty: D(1) })));
    journal.observe(anOrderUpdate(entry({ orderState: 'CANCELLED', executedQty: D(0), updateAt: 1_500 })));
    await lookups.pending();
    expect(asked).toEqual([]);
  });

  it('stops reading the history once it found every leg, or after its limit', async () => {
    let read = 0;
    const counted = (entries: readonly AlgoOrder[]): AlgoOrderHistory =>
      async function* () {
        for (const algo of entries) {
          read++;
          yield algo;
        }
      };
    const taken: string[] = [];
    const sink = { attachedLeg: (algo: AlgoOrder) => taken.push(algo.algoOrderId) };
    const parent = { ...entry({ orderState: 'FILLED', executedQty: D(1) }) } as OrderRecord;
    const found = new AttachedLegLookups(
      sink,
      onlyHistory(counted([leg('A-1'), leg('A-2'), leg('A-3'), leg('A-4')])),
      () => {},
    );
    found.parentEnded(parent);
    await found.pending();
    expect([read, taken]).toEqual([2, ['A-1', 'A-2']]);
    read = 0;
    const strangers = Array.from({ length: 50 }, (_, i) => leg(`X-${i}`, { attachedOrderId: 'O-9' }));
    const limited = new AttachedLegLookups(sink, onlyHistory(counted(strangers)), () => {}, 10);
    limited.parentEnded(parent);
    await limited.pending();
    expect(read).toBe(10);
  });

  it('asks for the legs of a parent asked for again one by one by their ids, not from the history', async () => {
    const asked: string[] = [];
    const taken: string[] = [];
    const byId = new Map([
      ['A-1', leg('A-1', { state: 'TRIGGERED', updateAt: 4_000 })],
      ['A-2', leg('A-2', { state: 'CANCELLED', updateAt: 5_000 })],
    ]);
    const lookups = new AttachedLegLookups(
      { attachedLeg: (algo) => taken.push(`${algo.algoOrderId} ${algo.state}`) },
      {
        // The history's newest entries no longer reach the legs.
        history: historyOf(
          Array.from({ length: 5 }, (_, i) => leg(`X-${i}`, { attachedOrderId: 'O-9' })),
          asked,
        ),
        byId: async (id) => {
          asked.push(id);
          const algo = byId.get(id);
          if (algo === undefined) throw new Error(`no algo order ${id}`);
          return algo;
        },
      },
      () => {},
      3,
    );
    lookups.parentEnded({
      orderId: 'O-1',
      clientOrderId: 'brk-1',
      sym: 'BINANCE_PERP_BTC_USDT',
      createAt: 2_000,
      legIds: new Set(['A-2', 'A-1']),
    });
    await lookups.pending();
    // Listed in the venue's creation order, as the legs found in the history are.
    expect([asked, taken]).toEqual([
      ['A-2', 'A-1'],
      ['A-1 TRIGGERED', 'A-2 CANCELLED'],
    ]);
  });

  it('reports a lookup that failed and goes on with the next parent', async () => {
    const failed: string[] = [];
    const taken: string[] = [];
    let calls = 0;
    const history: AlgoOrderHistory = async function* () {
      calls++;
      if (calls === 1) throw new Error('venue unreachable');
      yield leg('A-2', { attachedOrderId: 'O-2' });
    };
    const lookups = new AttachedLegLookups(
      { attachedLeg: (algo) => taken.push(algo.algoOrderId) },
      onlyHistory(history),
      (parent, error) => failed.push(`${parent.clientOrderId}: ${(error as Error).message}`),
    );
    lookups.parentEnded(entry({ orderState: 'FILLED', executedQty: D(1) }));
    lookups.parentEnded(
      entry({
        orderId: 'O-2',
        clientOrderId: 'brk-2',
        sl: undefined,
        orderState: 'FILLED',
        executedQty: D(1),
      }),
    );
    await lookups.pending();
    expect(failed).toEqual(['brk-1: venue unreachable']);
    expect(taken).toEqual(['A-2']);
  });

  it('says a lookup is pending until it ended, and asks once for a parent asked for twice before its lookup began', async () => {
    const asked: string[] = [];
    const taken: string[] = [];
    const lookups = new AttachedLegLookups(
      { attachedLeg: (algo) => taken.push(algo.algoOrderId) },
      onlyHistory(historyOf([leg('A-1'), leg('A-2')], asked)),
      () => {},
    );
    expect(lookups.pending()).toBeUndefined();
    const parent = entry({ orderState: 'FILLED', executedQty: D(1) });
    lookups.parentEnded(parent);
    lookups.parentEnded(parent);
    const pending = lookups.pending();
    expect(pending).toBeDefined();
    await pending;
    expect(lookups.pending()).toBeUndefined();
    expect([asked.length, taken]).toEqual([1, ['A-1', 'A-2']]);
    // Asked again once the first lookup is done: read again.
    lookups.parentEnded(parent);
    await lookups.pending();
    expect(asked.length).toBe(2);
  });
});
