import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeMarkdownTables } from '../../config/schema/index.ts';
import {
  STRATEGIES_README,
  strategyParamsMarkdown,
  withStrategyParams,
} from '../../config/strategy-params-reference.ts';
import { BUILT_IN_STRATEGIES } from '../../strategies/index.ts';

describe('parameter tables of strategies/README.md', () => {
  it('match the strategies’ zod schemas (run npm run schema after changing a strategy’s params)', () => {
    const committed = readFileSync(STRATEGIES_README, 'utf8');
    expect(normalizeMarkdownTables(committed)).toBe(normalizeMarkdownTables(withStrategyParams(committed)));
  });

  it('list every parameter of every built-in strategy with its type, default and meaning', () => {
    const text = strategyParamsMarkdown();
    for (const strategy of BUILT_IN_STRATEGIES.values()) {
      expect(text).toContain(`### \`${strategy.name}\``);
      const shape = (strategy.params as unknown as { shape?: Record<string, unknown> }).shape ?? {};
      for (const name of Object.keys(shape)) expect(text).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
    }
    expect(text).toContain(
      '| `fast` | integer, >= 1 |  | `10` | Bars in the fast SMA (shorter than slow). |',
    );
    expect(text).toContain(
      '| `qty` | number, > 0 | yes |  | Size of each quote, in base units (or contracts). |',
    );
    // Every row says what the parameter means.
    expect(text).not.toMatch(/^\| `\w+` \|.*\|\s*\|$/m);
  });
});
