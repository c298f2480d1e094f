import { describe, expect, it } from 'vitest';
import { strategyName, strategySource, strategyUseSchema } from '../../../config/schema/index.ts';

describe('strategy source', () => {
  it('tells built-in names from plugin modules, resolving modules against the config directory', () => {
    expect(strategySource('market-maker', '/cfg')).toEqual({ kind: 'built-in', name: 'market-maker' });
    expect(strategySource('./my-strategy.ts', '/cfg')).toEqual({
      kind: 'module',
      path: '/cfg/my-strategy.ts',
    });
    expect(strategySource('../plugins/x.js', '/cfg/run')).toEqual({
      kind: 'module',
      path: '/cfg/plugins/x.js',
    });
    expect(strategySource('/abs/y.mjs', '/cfg')).toEqual({ kind: 'module', path: '/abs/y.mjs' });
  });

  it('accepts only kebab-case names or .ts/.js paths', () => {
    expect(strategyUseSchema.safeParse('sma-cross').success).toBe(true);
    expect(strategyUseSchema.safeParse('./a.ts').success).toBe(true);
    expect(strategyUseSchema.safeParse('SmaCross').success).toBe(false);
    expect(strategyUseSchema.safeParse('./a.py').success).toBe(false);
  });

  it('says which module endings it accepts, .mjs included, and that .cjs is not one', () => {
    expect(strategyUseSchema.safeParse('./a.mjs').success).toBe(true);
    expect(strategyUseSchema.safeParse('./a.cjs').error?.issues[0]?.message).toBe(
      'must be a built-in strategy name like "sma-cross" or a path to an ES module ending .ts, .mts, .js or .mjs (CommonJS .cjs plugins are not supported)',
    );
  });

  it('names a plugin by its file name without the extension, a built-in by its name', () => {
    expect(strategyName('sma-cross')).toBe('sma-cross');
    expect(strategyName('./breakout.ts')).toBe('breakout');
    expect(strategyName('/home/alice/strategies/mean-revert.mjs')).toBe('mean-revert');
    expect(strategyName('../plugins/x.js')).toBe('x');
  });
});
