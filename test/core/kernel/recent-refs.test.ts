import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecentRefs } from '../../../core/kernel/recent-refs.ts';

/**
 * Pushes `pushed` into a ring of `capacity` and checks that each of `asked` is found at the slot
 * of its latest push among the last `capacity`, or not at all.
 */
function expectLatestSlots(capacity: number, pushed: readonly string[], asked: readonly string[]): void {
  const ring = new RecentRefs(capacity);
  const slots = pushed.map((ref) => ring.push(ref));
  const kept = pushed.slice(Math.max(0, pushed.length - capacity));
  for (const ref of asked) {
    const latest = kept.lastIndexOf(ref);
    const expected = latest === -1 ? -1 : slots[pushed.length - kept.length + latest];
    expect(ring.slotOf(ref)).toBe(expected);
  }
}

describe('RecentRefs', () => {
  it('finds the latest slot of a reference among the last `capacity` pushed, and none older', () => {
    fc.assert(
      fc.property(
        fc.nat(12),
        fc.array(fc.constantFrom<string>('a', 'b', 'c', 'd', 'e'), { maxLength: 60 }),
        (capacity, refs) => expectLatestSlots(capacity, refs, ['a', 'b', 'c', 'd', 'e']),
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

describe('RecentRefs with references that end in counters', () => {
  const refs = fc.oneof(
    fc.constantFrom(
      'mm-1',
      'mm-01',
      'mm-0',
      'mm-a',
      'mm-10',
      'pmm-bid-1',
      'a',
      '1',
      '0',
      '00',
      'x-',
      '',
      'A-1',
      'mm-1A',
    ),
    fc.tuple(fc.constantFrom('s-', 's-run-', 'q', ''), fc.nat()).map(([head, n]) => head + n.toString(36)),
    fc
      .tuple(fc.constantFrom('s-', ''), fc.stringMatching(/^[0-9a-z]{9,12}$/))
      .map(([head, tail]) => head + tail),
    fc.string({ maxLength: 6 }),
  );

  it('finds the latest slot of exactly the reference pushed, whatever its form', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.array(refs, { maxLength: 60 }),
        fc.array(refs),
        (capacity, pushed, asked) => expectLatestSlots(capacity, pushed, [...pushed, ...asked]),
      ),
    );
  });

  it('tells apart references whose counters differ only by a leading zero or a digit past ten', () => {
    const ring = new RecentRefs(8);
    const one = ring.push('mm-1');
    const eleven = ring.push('s-zzzzzzzzzzz');
    expect(ring.slotOf('mm-01')).toBe(-1);
    expect(ring.slotOf('mm-1')).toBe(one);
    expect(ring.slotOf('s-zzzzzzzzzz')).toBe(-1);
    expect(ring.slotOf('s-zzzzzzzzzzz')).toBe(eleven);
  });
});
