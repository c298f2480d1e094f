import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecentRefs } from '../../../core/kernel/recent-refs.ts';

describe('RecentRefs', () => {
  it('finds the latest slot of a reference among the last `capacity` pushed, and none older', () => {
    fc.assert(
      fc.property(
        fc.nat(12),
        fc.array(fc.constantFrom<string>('a', 'b', 'c', 'd', 'e'), { maxLength: 60 }),
        (capacity, refs) => {
          const ring = new RecentRefs(capacity);
          const slots = refs.map((ref) => ring.push(ref));
          const kept = refs.slice(Math.max(0, refs.length - capacity));
          for (const ref of ['a', 'b', 'c', 'd', 'e']) {
            const latest = kept.lastIndexOf(ref);
            const expected = latest === -1 ? -1 : slots[refs.length - kept.length + latest];
            expect(ring.slotOf(ref)).toBe(expected);
          }
        },
      ),
    );
  });

  it('finds a forgotten command no more', () => {
    const ring = new RecentRefs(4);
    const slot = ring.push('a');
    ring.push('b');
    ring.forget(slot);
    expect(ring.slotOf('a')).toBe(-1);
    expect(ring.slotOf('b')).not.toBe(-1);
  });

  it('remembers nothing at capacity 0', () => {
    const ring = new RecentRefs(0);
    expect(ring.push('a')).toBe(-1);
    expect(ring.slotOf('a')).toBe(-1);
  });
});
