import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, EXAMPLES, mutate, mutation } from './mutate-kit.ts';

describe('config loader: mutated examples never crash and every problem is located', () => {
  for (const { file, text } of EXAMPLES)
    it(file, () => {
      fc.assert(
        fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (muts) => {
          expect(check(file, mutate(text, muts))).toEqual([]);
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
      );
    }, 120_000);
});
