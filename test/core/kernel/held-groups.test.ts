import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeldGroups } from '../../../core/kernel/held-groups.ts';

describe('HeldGroups', () => {
  it('gives a group its items in the order they were added, once', () => {
    const groups = new HeldGroups<number>(10);
    groups.add('a', 1);
    groups.add('b', 2);
    groups.add('a', 3);
    expect(groups.take('a')).toEqual([1, 3]);
    expect(groups.take('a')).toEqual([]);
    expect(groups.take('b')).toEqual([2]);
  });

  it('holds the last `kept` items added and not taken, telling which one it forgot', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.tuple(fc.boolean(), fc.constantFrom('a', 'b', 'c')), { maxLength: 30 }),
        (kept, steps) => {
          const groups = new HeldGroups<number>(kept);
          // The model: every held item with its group, oldest first.
          let model: { group: string; item: number }[] = [];
          steps.forEach(([isTake, group], item) => {
            if (isTake) {
              expect(groups.take(group)).toEqual(model.filter((h) => h.group === group).map((h) => h.item));
              model = model.filter((h) => h.group !== group);
              return;
            }
            model.push({ group, item });
            const forgotten = model.length > kept ? model.shift() : undefined;
            expect(groups.add(group, item)).toBe(forgotten?.item);
          });
          for (const group of ['a', 'b', 'c'])
            expect(groups.take(group)).toEqual(model.filter((h) => h.group === group).map((h) => h.item));
        },
      ),
    );
  });

  it('forgets the oldest items while they match, and no later one', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.integer({ min: 0, max: 9 })), { maxLength: 20 }),
        fc.integer({ min: 0, max: 9 }),
        (adds, below) => {
          const groups = new HeldGroups<number>(100);
          for (const [group, item] of adds) groups.add(group, item);
          const forgotten = groups.forgetOldestWhile((item) => item < below);
          const firstKept = adds.findIndex(([, item]) => item >= below);
          const kept = firstKept === -1 ? [] : adds.slice(firstKept);
          expect(forgotten).toEqual(
            adds.slice(0, firstKept === -1 ? adds.length : firstKept).map(([, item]) => item),
          );
          expect(groups.oldest()).toBe(kept[0]?.[1]);
          expect(groups.size).toBe(kept.length);
          for (const group of ['a', 'b', 'c'])
            expect(groups.take(group)).toEqual(kept.filter(([g]) => g === group).map(([, item]) => item));
        },
      ),
    );
  });
});
