import { existsSync, statSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import { UserDataJournal } from '../../../config/compose/user-data-journal.ts';
import type { IntentDenied } from '../../../core/kernel/index.ts';
import { D, type Order, type UserEvent } from '../../../core/model/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { anExecution } from '../../kit/execution-builders.ts';
import { anOrderUpdate } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { spillDirectoriesDisposedAfterEach } from '../../kit/temp-dirs.ts';

const aSpillDirectory = spillDirectoriesDisposedAfterEach('keel-test-session-journal-');

const aDenial = (i: number): IntentDenied => ({
  kind: 'denied',
  strategyId: 'mm',
  ref: `q-${i}`,
  intentKind: 'placeOrder',
  source: 'risk',
  check: 'maxOpenOrders',
  reason: `placeOrder q-${i} refused: too many open orders`,
  ts: i,
});

const aFill = (i: number): UserEvent => ({
  kind: 'execution',
  ts: 10 * i,
  recvTs: 10 * i,
  execution: anExecution({
    transactionId: `T-${i}`,
    orderId: `O-${i}`,
    clientOrderId: `mm-${i}`,
    side: i % 2 === 0 ? 'BUY' : 'SELL',
    quantity: '1',
    price: `${100 + (i % 7)}`,
    timestamp: 10 * i,
  }),
});

/** One step of a session's order traffic: place order `id`, fill or cancel it, or repeat its last update (a duplicate push). */
type OrderStep = { readonly kind: 'place' | 'fill' | 'cancel' | 'repeat' | 'stray'; readonly id: number };

/** One step of a session's algo order traffic: place algo `id`, or end it (fired through its order, or cancelled). */
type Step = { readonly kind: 'place' | 'fire' | 'cancel'; readonly id: number };

describe("a session's User Data journal over a long run", () => {
  it('holds only the open algo orders and writes the denials to its spill files, yet lists every one in creation order', () => {
    const dir = aSpillDirectory();
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined, () => 'mm', {
      dir,
      algoJournal: { window: 8 },
      denialsInMemory: 0,
    });
    let mostOpen = 0;
    // 3 000 stop orders, each fired by the order it sends before the next-but-one is placed:
    // a session of weeks in miniature (the venue pushes no algo updates; the fired order names it).
    for (let i = 0; i < 3_000; i++) {
      const algo = anAlgoOrder({
        algoOrderId: `A-${i}`,
        clientAlgoOrderId: `stop-${i}`,
        updateAt: 10 * i + 1,
      });
      journal.observe(anAlgoOrderUpdate(algo));
      if (i >= 1) {
        const earlier = i - 1;
        journal.observe(
          anOrderUpdate(
            anOrder({
              orderId: `O-${earlier}`,
              clientOrderId: `stop-${earlier}-trig`,
              algoOrderId: `A-${earlier}`,
              createAt: 10 * i + 2,
              updateAt: 10 * i + 2,
            }),
          ),
        );
      }
      journal.denied(aDenial(i));
      mostOpen = Math.max(mostOpen, journal.openAlgoCount);
    }
    expect(mostOpen).toBeLessThanOrEqual(2);
    expect(journal.openAlgoCount).toBe(1);
    expect(journal.deniedCount).toBe(3_000);
    // The denials are in the file already, not in memory.
    expect(existsSync(dir.file('denials.jsonl')) && statSync(dir.file('denials.jsonl')).size).toBeGreaterThan(
      0,
    );
    const { algoOrders, denials } = journal.finish();
    const listed = [...algoOrders];
    expect(listed).toHaveLength(3_000);
    expect(listed.map((a) => a.clientAlgoOrderId)).toEqual(
      Array.from({ length: 3_000 }, (_, i) => `stop-${i}`),
    );
    expect(listed.slice(0, -1).every((a) => a.state === 'TRIGGERED')).toBe(true);
    expect(listed.at(-1)?.state).toBe('NEW');
    expect([...denials].map((d) => d.ref)).toEqual(Array.from({ length: 3_000 }, (_, i) => `q-${i}`));
  });

  it('lists every algo order once, in first-seen order, in its last state, holding only the open ones (any interleaving)', () => {
    const steps = fc
      .array(fc.record({ kind: fc.constantFrom<Step['kind']>('place', 'fire', 'cancel'), id: fc.nat(40) }), {
        maxLength: 200,
      })
      .map((raw) => raw as readonly Step[]);
    fc.assert(
      fc.property(steps, fc.integer({ min: 1, max: 6 }), (run, window) => {
        const journal = new UserDataJournal(new RunMetrics(() => 0), undefined, () => 's', {
          dir: aSpillDirectory(),
          algoJournal: { window, runLines: 3 },
          denialsInMemory: 0,
        });
        const expected = new Map<number, 'NEW' | 'TRIGGERED' | 'CANCELLED'>();
        let t = 0;
        for (const step of run) {
          t += 1;
          const state = expected.get(step.id);
          const algo = anAlgoOrder({ algoOrderId: `A-${step.id}`, clientAlgoOrderId: `a-${step.id}` });
          if (step.kind === 'place' && state === undefined) {
            journal.observe(anAlgoOrderUpdate({ ...algo, createAt: t, updateAt: t }));
            expected.set(step.id, 'NEW');
          } else if (step.kind === 'fire' && state === 'NEW') {
            const fired = anOrder({
              orderId: `O-${step.id}`,
              clientOrderId: `a-${step.id}-trig`,
              createAt: t,
            });
            journal.observe(anOrderUpdate({ ...fired, algoOrderId: `A-${step.id}`, updateAt: t }));
            expected.set(step.id, 'TRIGGERED');
          } else if (step.kind === 'cancel' && state === 'NEW') {
            journal.observe(anAlgoOrderUpdate({ ...algo, state: 'CANCELLED', createAt: t, updateAt: t }));
            expected.set(step.id, 'CANCELLED');
          }
          const open = [...expected.values()].filter((s) => s === 'NEW').length;
          if (journal.openAlgoCount !== open) return false;
        }
        const listed = [...journal.finish().algoOrders].map((a) => `${a.clientAlgoOrderId} ${a.state}`);
        return (
          JSON.stringify(listed) === JSON.stringify([...expected].map(([id, state]) => `a-${id} ${state}`))
        );
      }),
      { numRuns: 150 },
    );
  });

  it('holds only the open orders and writes the fills to its spill files, yet lists every order (creation order, final state) and every fill', () => {
    const dir = aSpillDirectory();
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined, () => 'mm', {
      dir,
      orderJournal: { window: 16, runLines: 64 },
      fillsInMemory: 0,
    });
    let mostHeld = 0;
    // 3 000 orders: each placed, then filled once the next is placed; every 500th rests until
    // the end, and every 97th is cancelled instead: a session of weeks in miniature.
    const resting = (i: number) => i % 500 === 0;
    const cancelled = (i: number) => i % 97 === 5;
    const placed = (i: number): Order =>
      anOrder({ orderId: `O-${i}`, clientOrderId: `mm-${i}`, createAt: 10 * i, updateAt: 10 * i });
    for (let i = 0; i < 3_000; i++) {
      journal.observe(anOrderUpdate(placed(i)));
      const earlier = i - 1;
      if (earlier >= 0 && !resting(earlier)) {
        const before = placed(earlier);
        if (cancelled(earlier)) {
          journal.observe(anOrderUpdate({ ...before, orderState: 'CANCELLED', updateAt: 10 * i + 1 }));
        } else {
          journal.observe(aFill(earlier));
          const filled: Order = { ...before, orderState: 'FILLED', executedQty: D(1), updateAt: 10 * i + 1 };
          journal.observe(anOrderUpdate(filled));
          // A duplicate push of its first state after it ended changes nothing.
          journal.observe(anOrderUpdate(before));
        }
      }
      mostHeld = Math.max(mostHeld, journal.heldOrderCount);
    }
    const restingCount = 6;
    const filledIds = Array.from({ length: 2_999 }, (_, i) => i).filter((i) => !resting(i) && !cancelled(i));
    expect(journal.fillCount).toBe(filledIds.length);
    expect(mostHeld).toBeLessThanOrEqual(restingCount + 2);
    expect(journal.openOrders().length).toBe(restingCount + 1);
    // The fills are in the file already, not in memory.
    expect(existsSync(dir.file('fills.jsonl')) && statSync(dir.file('fills.jsonl')).size).toBeGreaterThan(0);
    const { orders, fills } = journal.finish();
    const listed = [...orders];
    expect(listed).toHaveLength(3_000);
    expect(listed.map((o) => o.clientOrderId)).toEqual(Array.from({ length: 3_000 }, (_, i) => `mm-${i}`));
    const expectedState = (i: number) =>
      i === 2_999 || resting(i) ? 'OPEN' : cancelled(i) ? 'CANCELLED' : 'FILLED';
    expect(listed.map((o) => o.orderState)).toEqual(
      Array.from({ length: 3_000 }, (_, i) => expectedState(i)),
    );
    expect(listed.every((o) => o.strategyId === 'mm')).toBe(true);
    const fillList = [...fills];
    expect(fills).toHaveLength(filledIds.length);
    expect(fillList.map((f) => f.transactionId)).toEqual(filledIds.map((i) => `T-${i}`));
    expect(
      fillList.every(
        (f) => f.strategyId === 'mm' && f.price.eq(100 + (Number(f.transactionId.slice(2)) % 7)),
      ),
    ).toBe(true);
  });

  it('lists every order once, in first-seen order, in its last state, holding only the open ones (any interleaving)', () => {
    const steps = fc
      .array(
        fc.record({
          kind: fc.constantFrom<OrderStep['kind']>('place', 'fill', 'cancel', 'repeat', 'stray'),
          id: fc.nat(40),
        }),
        { maxLength: 200 },
      )
      .map((raw) => raw as readonly OrderStep[]);
    fc.assert(
      fc.property(steps, fc.integer({ min: 1, max: 6 }), (run, window) => {
        const journal = new UserDataJournal(new RunMetrics(() => 0), undefined, () => 's', {
          dir: aSpillDirectory(),
          orderJournal: { window, runLines: 3 },
          fillsInMemory: 2,
        });
        const expected = new Map<number, Order>();
        const sent: Order[] = [];
        const fillIds: string[] = [];
        let t = 0;
        for (const step of run) {
          t += 1;
          const known = expected.get(step.id);
          const base = anOrder({
            orderId: `O-${step.id}`,
            clientOrderId: `c-${step.id}`,
            createAt: t,
            updateAt: t,
          });
          let update: Order | undefined;
          if (step.kind === 'place' && known === undefined) {
            update = base;
            expected.set(step.id, update);
          } else if (known?.orderState === 'OPEN' && (step.kind === 'fill' || step.kind === 'cancel')) {
            update =
              step.kind === 'fill'
                ? { ...known, orderState: 'FILLED', executedQty: D(1), updateAt: t }
                : { ...known, orderState: 'CANCELLED', updateAt: t };
            expected.set(step.id, update);
            if (step.kind === 'fill') {
              fillIds.push(`T-${t}`);
              journal.observe({
                kind: 'execution',
                ts: t,
                recvTs: t,
                execution: anExecution({
                  transactionId: `T-${t}`,
                  clientOrderId: `c-${step.id}`,
                  side: 'BUY',
                  quantity: '1',
                  price: '100',
                  timestamp: t,
                }),
              });
            }
          } else if (step.kind === 'repeat' && sent.length > 0) {
            // A duplicate or late copy of an earlier update of any order: never a newer state.
            update = sent[step.id % sent.length];
          } else if (step.kind === 'stray' && fillIds.length > 0) {
            // The same fill pushed again.
            const again = fillIds[step.id % fillIds.length] as string;
            journal.observe({
              kind: 'execution',
              ts: t,
              recvTs: t,
              execution: anExecution({
                transactionId: again,
                side: 'BUY',
                quantity: '1',
                price: '100',
                timestamp: t,
              }),
            });
          }
          if (update !== undefined) {
            sent.push(update);
            journal.observe(anOrderUpdate(update));
          }
          const open = [...expected.values()].filter((o) => o.orderState === 'OPEN').length;
          if (journal.heldOrderCount !== open || journal.openOrders().length !== open) return false;
        }
        const { orders, fills } = journal.finish();
        const listed = [...orders].map((o) => `${o.clientOrderId} ${o.orderState} ${o.updateAt}`);
        const want = [...expected.values()].map((o) => `${o.clientOrderId} ${o.orderState} ${o.updateAt}`);
        return (
          JSON.stringify(listed) === JSON.stringify(want) &&
          JSON.stringify([...fills].map((f) => f.transactionId)) === JSON.stringify(fillIds)
        );
      }),
      { numRuns: 150 },
    );
  });
});
