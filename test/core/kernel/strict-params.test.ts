import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, strictParams } from '../../../core/kernel/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';

describe('strategy params schemas', () => {
  it('parse a plain z.object strictly: an unknown key is refused, not dropped', () => {
    const schema = strictParams(z.object({ period: z.number().default(3) }));
    const parsed = schema.safeParse({ perod: 5 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['perod'] });
    expect(schema.parse({})).toEqual({ period: 3 });
  });

  it('leave schemas that chose their unknown-key policy, and non-objects, as they are', () => {
    const loose = z.looseObject({ a: z.number() });
    const other = z.union([z.number(), z.string()]);
    expect(strictParams(loose)).toBe(loose);
    expect(strictParams(other)).toBe(other);
    expect(strictParams(loose).parse({ a: 1, b: 2 })).toEqual({ a: 1, b: 2 });
  });

  it('refuse a misspelled key inside a nested plain z.object, with its default', () => {
    const schema = strictParams(
      z.object({
        sym: z.string(),
        exit: z
          .object({ takeProfit: z.number().default(0.05), stopLoss: z.number().default(0.02) })
          .default({ takeProfit: 0.05, stopLoss: 0.02 }),
      }),
    );
    const parsed = schema.safeParse({ sym: 'X', exit: { takeProfit: 0.1, stopLos: 0.01 } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      code: 'unrecognized_keys',
      keys: ['stopLos'],
      path: ['exit'],
    });
    expect(schema.parse({ sym: 'X' })).toEqual({ sym: 'X', exit: { takeProfit: 0.05, stopLoss: 0.02 } });
  });

  it('leave the output side of a pipe, what a .catch wraps and recursive getter fields as written', () => {
    // z.preprocess that maps an old name onto the new one passes the old key along.
    const aliased = strictParams(
      z.object({
        exit: z.preprocess(
          (v) => (typeof v === 'object' && v !== null && 'size' in v ? { ...v, qty: v.size } : v),
          z.object({ qty: z.number() }),
        ),
      }),
    );
    expect(aliased.parse({ exit: { size: 2 } })).toEqual({ exit: { qty: 2 } });
    // A transform adding a derived key before a pipe into an object that does not list it.
    const derived = strictParams(
      z
        .object({ fast: z.number(), slow: z.number() })
        .transform((p) => ({ ...p, ratio: p.slow / p.fast }))
        .pipe(
          z.object({ fast: z.number(), slow: z.number() }) as unknown as z.ZodType<
            { fast: number; slow: number },
            { fast: number; slow: number; ratio: number }
          >,
        ),
    );
    expect(derived.parse({ fast: 2, slow: 8 })).toEqual({ fast: 2, slow: 8 });
    // A typo under .catch is no error, rather than the fallback replacing what the user wrote.
    const caught = strictParams(z.object({ exit: z.object({ take: z.number() }).catch({ take: 50 }) }));
    expect(caught.parse({ exit: { take: 80, tkae: 1 } })).toEqual({ exit: { take: 80 } });
    // zod 4's recursive object, written with a getter: the schema loads and parses.
    const Rule = z.object({
      field: z.string(),
      get all() {
        return z.array(Rule).optional();
      },
    });
    const recursive = strictParams(z.object({ filter: Rule.optional() }));
    const input = { filter: { field: 'a', all: [{ field: 'b' }] } };
    expect(recursive.parse(input)).toEqual(input);
    expect(recursive.safeParse({ filter: { feild: 'a' } }).success).toBe(false);
  });

  it('refuse misspelled keys in objects inside arrays, optionals, nullables, records, tuples and unions', () => {
    const leg = z.object({ ratio: z.number().default(1) });
    const cases: [z.ZodType, unknown][] = [
      [z.object({ legs: z.array(leg) }), { legs: [{ ratoi: 2 }] }],
      [z.object({ leg: leg.optional() }), { leg: { ratoi: 2 } }],
      [z.object({ leg: leg.nullable() }), { leg: { ratoi: 2 } }],
      [z.object({ legs: z.record(z.string(), leg) }), { legs: { a: { ratoi: 2 } } }],
      [z.object({ pair: z.tuple([leg, leg]) }), { pair: [{ ratio: 1 }, { ratoi: 2 }] }],
      [z.object({ leg: z.union([leg, z.number()]) }), { leg: { ratoi: 2 } }],
      [z.object({ leg: leg.readonly() }), { leg: { ratoi: 2 } }],
      [z.strictObject({ leg }), { leg: { ratoi: 2 } }],
    ];
    for (const [schema, input] of cases) {
      expect(schema.safeParse(input).success).toBe(true);
      expect(strictParams(schema).safeParse(input).success).toBe(false);
    }
  });

  it('keep refinements and transforms of the objects it makes strict', () => {
    const inner = z
      .object({ fast: z.number(), slow: z.number() })
      .refine((p) => p.fast < p.slow, 'fast must be shorter than slow');
    const schema = strictParams(
      z.object({ ma: inner, n: z.object({ k: z.number() }).transform((o) => o.k) }),
    );
    expect(schema.safeParse({ ma: { fast: 5, slow: 3 }, n: { k: 1 } }).error?.issues[0]?.message).toBe(
      'fast must be shorter than slow',
    );
    expect(schema.parse({ ma: { fast: 1, slow: 3 }, n: { k: 7 } })).toEqual({
      ma: { fast: 1, slow: 3 },
      n: 7,
    });
    expect(schema.safeParse({ ma: { fast: 1, slow: 3, slw: 4 }, n: { k: 7 } }).success).toBe(false);
  });

  it('leave loose nested objects loose, with what they hold', () => {
    const schema = strictParams(
      z.object({ extra: z.looseObject({ a: z.number(), inner: z.object({ b: z.number() }) }) }),
    );
    expect(schema.parse({ extra: { a: 1, z: 2, inner: { b: 1, c: 2 } } })).toEqual({
      extra: { a: 1, z: 2, inner: { b: 1 } },
    });
    expect(schema.safeParse({ extra: { a: 1 }, typo: 1 }).success).toBe(false);
  });

  it('make defineStrategy and the kernel refuse a misspelled param of a plain z.object plugin', () => {
    const plugin = defineStrategy({ name: 'plain', params: z.object({ period: z.number().default(3) }) });
    expect(plugin.params.safeParse({ perod: 5 }).success).toBe(false);
    const bare = { ...plugin, params: z.object({ period: z.number().default(3) }) };
    // A definition not made by this defineStrategy (another copy of Keel, a plain object).
    expect(() => aKernelRig([{ id: 's1', strategy: bare, params: { perod: 5 } }])).toThrow(
      /kernel: strategy s1 \(plain\): Unrecognized key: "perod"/,
    );
  });
});
