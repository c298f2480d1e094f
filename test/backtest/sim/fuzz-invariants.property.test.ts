import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { run, session } from '../../kit/fuzz-sessions.ts';

describe('fuzz: random legal sessions on two perps keep the sim invariants', () => {
  for (const model of ['touch', 'through', 'queue'] as const)
    for (const mode of ['NET', 'BOTH'] as const)
      it(`${model} ${mode}`, async () => {
        await fc.assert(
          fc.asyncProperty(session(), async (steps) => {
            const a = await run(steps, model, mode);
            expect(a.problems).toEqual([]);
            const b = await run(steps, model, mode);
            expect(b.fingerprint).toBe(a.fingerprint);
          }),
          { numRuns: Number(process.env.FUZZ_RUNS ?? 100) },
        );
      }, 120_000);
});

describe('fuzz: random legal bar sessions (bar fill model) keep the sim invariants', () => {
  for (const mode of ['NET', 'BOTH'] as const)
    it(`bar ${mode}`, async () => {
      if (process.env.FUZZ_BARS !== '1') return;
      await fc.assert(
        fc.asyncProperty(session(), async (steps) => {
          const a = await run(steps, 'bar', mode);
          expect(a.problems).toEqual([]);
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 100) },
      );
    }, 120_000);
});
