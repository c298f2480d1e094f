import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RetentionQueue } from '../../../core/kernel/retention-queue.ts';

describe('RetentionQueue', () => {
  it('hands back nothing until full, then the oldest key on every push', () => {
    const queue = new RetentionQueue(2);
    expect(queue.push('a')).toBeUndefined();
    expect(queue.push('b')).toBeUndefined();
    expect(queue.push('c')).toBe('a');
    expect(queue.push('d')).toBe('b');
    expect(queue.push('e')).toBe('c');
  });

  it('retains nothing at capacity 0: each key is handed back at once', () => {
    const queue = new RetentionQueue(0);
    expect(queue.push('a')).toBe('a');
    expect(queue.push('b')).toBe('b');
  });

  it('evicts exactly as a first-in-first-out list bounded to the capacity', () => {
    fc.assert(
      fc.property(fc.nat(20), fc.array(fc.string({ maxLength: 3 }), { maxLength: 200 }), (capacity, keys) => {
        const queue = new RetentionQueue(capacity);
        const model: string[] = [];
        for (const key of keys) {
          model.push(key);
          const expected = model.length > capacity ? model.shift() : undefined;
          expect(queue.push(key)).toBe(expected);
        }
      }),
    );
  });
});
