import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasGeneratedForm, StrategyRefs } from '../../../core/kernel/strategy-refs.ts';

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

  it('tells the generated form by the counter: {id}-{n in base 36}, and {id}-{runId}-{n} in a tagged run', () => {
    const counter = /^[1-9a-z][0-9a-z]*$/;
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'0123456789azAZ-_') }),
        fc.constantFrom('', 'r7'),
        (tail, runId) => {
          const prefix = runId === '' ? 'pmm-' : `pmm-${runId}-`;
          const own = counter.test(tail);
          expect(hasGeneratedForm(`pmm-${tail}`, 'pmm', prefix)).toBe(own);
          if (runId !== '') expect(hasGeneratedForm(`${prefix}${tail}`, 'pmm', prefix)).toBe(own);
        },
      ),
      { numRuns: 2_000 },
    );
    for (const n of [1, 35, 36, 1295, 1296, 2 ** 40])
      expect(hasGeneratedForm(`pmm-${n.toString(36)}`, 'pmm', 'pmm-')).toBe(true);
  });

  it('claims a custom reference of no generated form as none of its own, in every mode', () => {
    for (const runId of ['', 'r7']) {
      const refs = new StrategyRefs('pmm', runId);
      refs.next();
      for (const ref of ['pmm-bid-1', 'pmm-BUY-1', 'pmm-0', 'pmm-01', 'pmm-', 'pmmx-1', 'pmm_1', 'other-1'])
        expect(refs.claim(ref), `${ref} (run tag '${runId}')`).toBeUndefined();
    }
  });

  it('claims a generated reference once, then as used; one of the form never generated as reserved', () => {
    const refs = new StrategyRefs('pmm', '');
    const first = refs.next();
    expect(refs.claim(first)).toBe('redeemed');
    expect(refs.claim(first)).toBe('used');
    expect(refs.claim('pmm-2')).toBe('reserved');
    expect(refs.next()).toBe('pmm-2');
    expect(refs.claim('pmm-2')).toBe('redeemed');
    const tagged = new StrategyRefs('pmm', 'r7');
    expect(tagged.claim('pmm-r7-1')).toBe('reserved');
    // A backtest's form is refused in a tagged run too: the same custom references pass in every mode.
    expect(tagged.claim('pmm-1')).toBe('reserved');
  });
});
