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
    const other = z.union([z.object({ a: z.number() }), z.string()]);
    expect(strictParams(loose)).toBe(loose);
    expect(strictParams(other)).toBe(other);
    expect(strictParams(loose).parse({ a: 1, b: 2 })).toEqual({ a: 1, b: 2 });
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
