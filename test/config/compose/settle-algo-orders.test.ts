import { describe, expect, it } from 'vitest';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import { settleOpenAlgoOrders } from '../../../config/compose/settle-algo-orders.ts';
import { UserDataJournal } from '../../../config/compose/user-data-journal.ts';
import type { AlgoOrder } from '../../../core/model/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';

describe("a session's algo orders at its end", () => {
  it('asks the venue about those still open in the record and takes its answer, stopping at a failed lookup', async () => {
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined, () => 'brk');
    const open = (ref: string, id: string): AlgoOrder =>
      anAlgoOrder({ clientAlgoOrderId: ref, algoOrderId: id, updateAt: 1_000 });
    for (const algo of [
      open('cancelled-by-all', 'A-1'),
      open('unreachable', 'A-2'),
      open('fired', 'A-3'),
      open('after-failure', 'A-4'),
    ])
      journal.observe(anAlgoOrderUpdate(algo));
    journal.observe(anAlgoOrderUpdate({ ...open('fired', 'A-3'), state: 'TRIGGERED', updateAt: 2_000 }));
    const asked: string[] = [];
    const failed: string[] = [];
    await settleOpenAlgoOrders(
      journal,
      async (ref) => {
        const name = 'clientAlgoOrderId' in ref ? ref.clientAlgoOrderId : ref.algoOrderId;
        asked.push(name);
        if (name === 'unreachable') throw new Error('timeout');
        return { ...open(name, 'A-1'), state: 'CANCELLED', updateAt: 3_000 };
      },
      (ref) => failed.push(ref),
    );
    expect(asked).toEqual(['cancelled-by-all', 'unreachable']);
    expect(failed).toEqual(['unreachable']);
    expect([...journal.finish().algoOrders].map((a) => [a.clientAlgoOrderId, a.state, a.updateAt])).toEqual([
      ['cancelled-by-all', 'CANCELLED', 3_000],
      ['unreachable', 'NEW', 1_000],
      ['fired', 'TRIGGERED', 2_000],
      ['after-failure', 'NEW', 1_000],
    ]);
  });

  it('stops asking, and folds no late answer, once a stopping session’s deadline passed', async () => {
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined);
    for (let i = 0; i < 3; i++)
      journal.observe(anAlgoOrderUpdate(anAlgoOrder({ clientAlgoOrderId: `a${i}`, algoOrderId: `A-${i}` })));
    const stop = new AbortController();
    const asked: string[] = [];
    const failed: string[] = [];
    await settleOpenAlgoOrders(
      journal,
      async (ref) => {
        const name = 'clientAlgoOrderId' in ref ? ref.clientAlgoOrderId : ref.algoOrderId;
        asked.push(name);
        // The deadline passes while the venue is being asked.
        stop.abort();
        return anAlgoOrder({ clientAlgoOrderId: name, state: 'CANCELLED' });
      },
      (ref) => failed.push(ref),
      undefined,
      stop.signal,
    );
    expect(asked).toEqual(['a0']);
    expect(failed).toEqual([]);
    expect([...journal.finish().algoOrders].map((a) => a.state)).toEqual(['NEW', 'NEW', 'NEW']);
  });

  it('asks about at most as many as it is allowed', async () => {
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined);
    for (let i = 0; i < 5; i++)
      journal.observe(anAlgoOrderUpdate(anAlgoOrder({ clientAlgoOrderId: `a${i}`, algoOrderId: `A-${i}` })));
    let asked = 0;
    await settleOpenAlgoOrders(
      journal,
      async (ref) => {
        asked++;
        return anAlgoOrder('clientAlgoOrderId' in ref ? ref : {});
      },
      () => {},
      3,
    );
    expect(asked).toBe(3);
  });

  it("asks about an attached leg the venue gave no reference by the venue's id", async () => {
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined);
    const legOf = anAlgoOrder({ clientAlgoOrderId: '', algoOrderId: 'A-9', attachedOrderId: 'O-1' });
    journal.attachedLeg(legOf, 'brk');
    const asked: unknown[] = [];
    await settleOpenAlgoOrders(
      journal,
      async (ref) => {
        asked.push(ref);
        return { ...legOf, state: 'CANCELLED', updateAt: 2_000 };
      },
      () => {},
    );
    expect(asked).toEqual([{ algoOrderId: 'A-9' }]);
    expect([...journal.finish().algoOrders].map((a) => [a.algoOrderId, a.state, a.strategyId])).toEqual([
      ['A-9', 'CANCELLED', 'brk'],
    ]);
  });
});
