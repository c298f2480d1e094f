import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_STRATEGIES } from '../../strategies/index.ts';

const readme = readFileSync(new URL('../../strategies/README.md', import.meta.url), 'utf8');

describe('built-in strategies', () => {
  it('registers the seven examples under their own names', () => {
    expect([...BUILT_IN_STRATEGIES.keys()].sort()).toEqual(
      ['bracket', 'grid', 'loan-carry', 'market-maker', 'risk-guard', 'sma-cross', 'twap'].sort(),
    );
    for (const [name, strategy] of BUILT_IN_STRATEGIES) expect(strategy.name).toBe(name);
  });

  it('gives each a README line that is its description', () => {
    for (const [name, strategy] of BUILT_IN_STRATEGIES) {
      expect(strategy.description, name).toBeTruthy();
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${name}\``));
      // A table formatter may pad the cells: compare the trimmed text of the row's second cell.
      expect(row?.split('|')[2]?.trim(), name).toBe(strategy.description);
    }
  });

  it('refuses parameters it does not know, so a typo in a config is an error and not a default', () => {
    for (const [name, strategy] of BUILT_IN_STRATEGIES) {
      const result = strategy.params.safeParse({ surelyNotAParameter: 1 });
      expect(result.success, name).toBe(false);
      const messages = result.success ? [] : result.error.issues.map((i) => i.code);
      expect(messages, name).toContain('unrecognized_keys');
    }
  });
});
