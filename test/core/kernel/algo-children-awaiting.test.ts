import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AlgoChildrenAwaiting, AWAITING_ALGO_CHILD_MS } from '../../../core/kernel/algo-children-awaiting.ts';

describe('AlgoChildrenAwaiting', () => {
  it('hands back the orders naming an algo order in the order first seen, once', () => {
    const awaiting = new AlgoChildrenAwaiting();
    awaiting.hold('o1', 'A', 0);
    awaiting.hold('o2', 'B', 0);
    awaiting.hold('o3', 'A', 0);
    awaiting.hold('o1', 'A', 0);
    expect(awaiting.take('A')).toEqual(['o1', 'o3']);
    expect(awaiting.take('A')).toEqual([]);
    expect([awaiting.awaits('o1'), awaiting.awaits('o2')]).toEqual([false, true]);
  });

  it('holds the most recent `kept` orders, forgetting the oldest first', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.constantFrom('A', 'B', 'C'), { minLength: 0, maxLength: 20 }),
        (kept, algos) => {
          const awaiting = new AlgoChildrenAwaiting(kept);
          for (const [i, algo] of algos.entries()) awaiting.hold(`o${i}`, algo, 0);
          const held = algos.map((_, i) => `o${i}`).filter((key) => awaiting.awaits(key));
          expect(held).toEqual(algos.map((_, i) => `o${i}`).slice(-kept));
          const taken = ['A', 'B', 'C'].flatMap((algo) => awaiting.take(algo));
          expect([...taken].sort()).toEqual([...held].sort());
        },
      ),
    );
  });

  it('gives up the orders held longer than AWAITING_ALGO_CHILD_MS, oldest first, and never holds them again', () => {
    const awaiting = new AlgoChildrenAwaiting();
    awaiting.hold('o1', 'A', 1_000);
    awaiting.hold('o2', 'B', 2_000);
    awaiting.hold('o3', 'A', 5_000);
    expect(awaiting.giveUp(1_000 + AWAITING_ALGO_CHILD_MS)).toEqual([]);
    expect(awaiting.giveUp(2_000 + AWAITING_ALGO_CHILD_MS + 1)).toEqual([
      { key: 'o1', algoOrderId: 'A', heldAt: 1_000 },
      { key: 'o2', algoOrderId: 'B', heldAt: 2_000 },
    ]);
    expect([awaiting.awaits('o1'), awaiting.awaits('o2'), awaiting.awaits('o3')]).toEqual([
      false,
      false,
      true,
    ]);
    expect(awaiting.oldestHeldAt()).toBe(5_000);
    awaiting.hold('o1', 'A', 20_000);
    expect(awaiting.awaits('o1')).toBe(false);
    expect(awaiting.take('A')).toEqual(['o3']);
    expect(awaiting.size).toBe(0);
  });

  it('hands over each order a newer one pushed out, once, and never holds it again', () => {
    const awaiting = new AlgoChildrenAwaiting(2);
    awaiting.hold('o1', 'A', 1);
    awaiting.hold('o2', 'B', 2);
    expect(awaiting.takePushedOut()).toEqual([]);
    awaiting.hold('o3', 'C', 3);
    expect(awaiting.takePushedOut()).toEqual([{ key: 'o1', algoOrderId: 'A', heldAt: 1 }]);
    expect(awaiting.takePushedOut()).toEqual([]);
    awaiting.hold('o1', 'A', 4);
    expect([awaiting.awaits('o1'), awaiting.awaits('o2'), awaiting.awaits('o3')]).toEqual([
      false,
      true,
      true,
    ]);
  });

  it("gives up one held order alone, once, leaving its algo order's others held, and never holds it again", () => {
    const awaiting = new AlgoChildrenAwaiting();
    awaiting.hold('o1', 'A', 1);
    awaiting.hold('o2', 'A', 2);
    expect(awaiting.giveUpOne('o1')).toEqual({ key: 'o1', algoOrderId: 'A', heldAt: 1 });
    expect(awaiting.giveUpOne('o1')).toBeUndefined();
    awaiting.hold('o1', 'A', 3);
    expect(awaiting.awaits('o1')).toBe(false);
    expect(awaiting.oldestHeldAt()).toBe(2);
    expect(awaiting.take('A')).toEqual(['o2']);
    expect(awaiting.size).toBe(0);
  });
});
