import { describe, expect, it } from 'vitest';
import { AlgoOrderJournal } from '../../../backtest/runner/index.ts';
import { D } from '../../../core/model/index.ts';
import { anAlgoOrder } from '../../kit/algo-order-builders.ts';
import { spillDirectoriesDisposedAfterEach } from '../../kit/temp-dirs.ts';

const aSpillDirectory = spillDirectoriesDisposedAfterEach('keel-test-algo-journal-');

describe("a backtest's algo order journal", () => {
  it('holds only the open algo orders, and lists every one in creation order with its steps', () => {
    const journal = new AlgoOrderJournal(aSpillDirectory(), { window: 1, keepInMemory: 0 });
    const a = anAlgoOrder({ algoOrderId: 'A-1', clientAlgoOrderId: 'a', updateAt: 1 });
    const b = anAlgoOrder({ algoOrderId: 'A-2', clientAlgoOrderId: 'b', updateAt: 2 });
    const c = anAlgoOrder({ algoOrderId: 'A-3', clientAlgoOrderId: 'c', updateAt: 3 });
    for (const algo of [a, b, c]) journal.update(algo, 's1');
    expect(journal.openCount).toBe(3);
    journal.update({ ...c, state: 'TRIGGERED', orderId: 'O-9', updateAt: 4 }, 's1');
    journal.update({ ...b, state: 'CANCELLED', updateAt: 5 }, undefined);
    expect(journal.openCount).toBe(1);
    journal.update({ ...a, triggerPrice: D(85), updateAt: 6 }, 's1');
    const records = [...journal.finish()];
    expect(records.map((r) => [r.clientAlgoOrderId, r.state, r.strategyId])).toEqual([
      ['a', 'NEW', 's1'],
      ['b', 'CANCELLED', 's1'],
      ['c', 'TRIGGERED', 's1'],
    ]);
    expect(records[0]?.steps.map((s) => s.triggerPrice.toFixed())).toEqual(['90', '85']);
    expect(records[2]?.orderId).toBe('O-9');
  });

  it('ignores an update after an algo order finished, or older than its last one', () => {
    const journal = new AlgoOrderJournal(aSpillDirectory());
    const placed = anAlgoOrder({ updateAt: 10 });
    journal.update(placed, 's1');
    journal.update({ ...placed, triggerPrice: D(80), updateAt: 5 }, 's1');
    journal.update({ ...placed, state: 'CANCELLED', updateAt: 20 }, 's1');
    journal.update({ ...placed, state: 'NEW', updateAt: 30 }, 's1');
    const [record] = [...journal.finish()];
    expect(record?.state).toBe('CANCELLED');
    expect(record?.steps.map((s) => [s.ts, s.state])).toEqual([
      [10, 'NEW'],
      [20, 'CANCELLED'],
    ]);
  });
});
