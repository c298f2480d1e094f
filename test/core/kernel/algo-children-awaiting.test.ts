import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AlgoChildrenAwaiting } from '../../../core/kernel/algo-children-awaiting.ts';

describe('AlgoChildrenAwaiting', () => {
  it('hands back the orders naming an algo order in the order first seen, once', () => {
    const awaiting = new AlgoChildrenAwaiting();
    awaiting.hold('o1', 'A');
    awaiting.hold('o2', 'B');
    awaiting.hold('o3', 'A');
    awaiting.hold('o1', 'A');
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
          for (const [i, algo] of algos.entries()) awaiting.hold(`o${i}`, algo);
          const held = algos.map((_, i) => `o${i}`).filter((key) => awaiting.awaits(key));
          expect(held).toEqual(algos.map((_, i) => `o${i}`).slice(-kept));
          const taken = ['A', 'B', 'C'].flatMap((algo) => awaiting.take(algo));
          expect([...taken].sort()).toEqual([...held].sort());
        },
      ),
    );
  });
});
