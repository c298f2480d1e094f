import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';

describe('defineStrategy: keys that are no hook or setting', () => {
  it('rejects a misspelled hook spread into the spec, naming it and the hook it likely means', () => {
    const hooks = { onbar: () => undefined };
    expect(() =>
      defineStrategy({ name: 'rt-typo', params: z.object({}), onStart: () => undefined, ...hooks }),
    ).toThrow(/defineStrategy rt-typo: "onbar" is not a strategy hook or setting.*did you mean onBar\?/);
  });

  it('names the nearest hook of a plural or otherwise near miss', () => {
    const extra = { onFills: () => undefined } as object;
    expect(() => defineStrategy({ name: 'x', params: z.object({}), ...extra })).toThrow(
      /"onFills".*did you mean onFill\?/,
    );
  });

  it('takes every hook and setting, and a definition given again', () => {
    const definition = defineStrategy({
      name: 'all',
      description: 'd',
      params: z.object({}),
      state: () => ({}),
      syms: () => [],
      setup: () => undefined,
      onStart: () => undefined,
      onBar: () => undefined,
      onStop: () => undefined,
    });
    expect(defineStrategy(definition).name).toBe('all');
  });
});
