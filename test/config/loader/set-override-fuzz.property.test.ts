import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatConfigProblem,
  type OverrideArg,
  parseConfigText,
  unsetOverride,
} from '../../../config/loader/index.ts';
import { EXAMPLES } from './mutate-kit.ts';

const PATHS = [
  'mode',
  'name',
  'strategies.0.params.qty',
  'strategies.0.risk.maxOrderQty',
  'strategies.5.id',
  'strategies[0].id',
  'backtest.startingCash.USDT',
  'backtest.recordings.0',
  'backtest.recordings.-1',
  'backtest',
  'risk',
  'risk.killSwitch',
  'instruments.0',
  'instruments.0.sym',
  'a.b.c',
  '',
  '.',
  '..',
  'strategies..id',
  'strategies.0',
  'logging.level',
  '__proto__.x',
  'constructor.prototype.x',
  'strategies.0.__proto__',
  'strategies.99999999999.id',
  'strategies.1e3.id',
];
const VALUES = [
  '',
  '1',
  '-1',
  'x',
  '[1, 2]',
  '{a: 1}',
  'null',
  '~',
  '*a',
  '&a x',
  '"',
  "'",
  '{',
  '[',
  '!!binary x',
  `\${NOPE}`,
  '1e400',
  '.nan',
];

describe('config loader: random --set / --unset overrides never crash and every problem is located', () => {
  for (const { file, text } of EXAMPLES)
    it(file, () => {
      fc.assert(
        fc.property(
          fc.array(
            fc.oneof(
              fc
                .tuple(
                  fc.constantFrom(...PATHS),
                  fc.oneof(fc.constantFrom(...VALUES), fc.string({ maxLength: 5 })),
                )
                .map(([p, v]): OverrideArg => `${p}=${v}`),
              fc.constantFrom(...PATHS).map((p): OverrideArg => unsetOverride(p)),
              fc.constantFrom(...PATHS).map((p): OverrideArg => p),
            ),
            { minLength: 1, maxLength: 3 },
          ),
          (overrides) => {
            let result: ReturnType<typeof parseConfigText> | undefined;
            expect(() => {
              result = parseConfigText(text, {
                file,
                env: { KEEL_API_KEY: 'k', KEEL_API_SECRET: 's' },
                overrides,
              });
            }).not.toThrow();
            if (result && !result.ok)
              for (const p of result.problems) {
                const line = formatConfigProblem(p);
                expect(line).not.toMatch(/\n| {4}at |undefined|\[object Object\]/);
                expect(p.where === '' && p.path.length > 0, line).toBe(false);
              }
            expect(({} as Record<string, unknown>).x).toBeUndefined();
          },
        ),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 200) },
      );
    }, 120_000);
});
