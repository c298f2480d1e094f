import { existsSync, statSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import { UserDataJournal } from '../../../config/compose/user-data-journal.ts';
import type { IntentDenied } from '../../../core/kernel/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
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
});
