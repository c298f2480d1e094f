import { describe, expect, it } from 'vitest';
import { fc, problemsOf, resultToJson, runScripted, session } from '../../kit/fuzz-backtests.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterAll('keel-fuzz-');

describe('fuzz: a plugin replaying a random legal script through runBacktest keeps the invariants', () => {
  for (const model of ['touch', 'queue'] as const)
    for (const mode of ['NET', 'BOTH'] as const)
      it(`${model} ${mode}`, async () => {
        let n = 0;
        await fc.assert(
          fc.asyncProperty(session(), async (steps) => {
            const d = dir();
            const a = await runScripted(d, steps, mode, model, `r${n}`);
            expect([...a.seen, ...problemsOf(a.result, a.range)]).toEqual([]);
            const b = await runScripted(d, steps, mode, model, `r${n++}`);
            expect(resultToJson(b.result)).toBe(resultToJson(a.result));
            a.result.dispose?.();
            b.result.dispose?.();
          }),
          { numRuns: Number(process.env.FUZZ_RUNS ?? 30) },
        );
      }, 300_000);
});
