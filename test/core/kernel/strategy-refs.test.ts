import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StrategyRefs } from '../../../core/kernel/strategy-refs.ts';

describe('strategy references', () => {
  it('generates {id}-{runId-}{counter in base 36}', () => {
    const refs = new StrategyRefs('mm', '');
    const tagged = new StrategyRefs('mm', 'r7');
    expect(Array.from({ length: 37 }, () => refs.next()).slice(-2)).toEqual(['mm-10', 'mm-11']);
    expect([tagged.prefix, tagged.next()]).toEqual(['mm-r7-', 'mm-r7-1']);
  });

  it('redeems each generated reference exactly once, in any order, as a plain set of issued ones does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant('next' as const), fc.integer({ min: 0, max: 30 })), { maxLength: 80 }),
        (steps) => {
          const refs = new StrategyRefs('s', '');
          const issued = new Set<string>();
          let generated = 0;
          for (const step of steps) {
            if (step === 'next') {
              const ref = refs.next();
              expect(ref).toBe(`s-${(++generated).toString(36)}`);
              issued.add(ref);
            } else {
              // 0 asks for a reference never generated; others count back from the latest one.
              const ref = step === 0 ? 's-zz' : `s-${Math.max(1, generated + 1 - step).toString(36)}`;
              expect(refs.redeem(ref)).toBe(issued.delete(ref));
            }
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
