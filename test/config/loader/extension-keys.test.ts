import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatConfigProblem, parseConfigText } from '../../../config/loader/index.ts';
import { keelJsonSchemaText } from '../../../config/schema/index.ts';

const TWAP = readFileSync('config/examples/twap-backtest.yaml', 'utf8');

const parse = (text: string) => parseConfigText(text, { file: 'bt.yaml', env: {} });
const problems = (text: string): string[] => {
  const result = parse(text);
  return result.ok ? [] : result.problems.map(formatConfigProblem);
};

describe('config loader: top-level x- extension keys', () => {
  it('drops a top-level x- key, whose anchor a strategy merges in', () => {
    const text = TWAP.replace(
      'strategies:\n',
      'x-twap: &twap { sym: BINANCE_PERP_BTC_USDT, side: BUY }\n\nstrategies:\n',
    ).replace('      sym: BINANCE_PERP_BTC_USDT\n      side: BUY\n', '      <<: *twap\n');
    expect(text).toContain('<<: *twap');
    const result = parse(text);
    if (!result.ok) throw new Error(result.problems.map(formatConfigProblem).join('\n'));
    expect(Object.keys(result.config)).not.toContain('x-twap');
    expect(result.config.strategies[0]?.params).toMatchObject({
      sym: 'BINANCE_PERP_BTC_USDT',
      side: 'BUY',
      slices: 20,
    });
  });

  it('still refuses an x- key below the top level, and a top-level key that only looks like one', () => {
    expect(
      problems(TWAP.replace('  closeAtEnd: false\n', '  closeAtEnd: false\n  x-note: 1\n')).join('\n'),
    ).toMatch(/backtest\.x-note is not a known key.*bt\.yaml:\d+:/);
    expect(problems(`xnote: 1\n${TWAP}`).join('\n')).toMatch(/xnote is not a known key.*bt\.yaml:1:/);
  });

  it('is allowed at the top level by the JSON Schema editors use', () => {
    const schema = JSON.parse(keelJsonSchemaText()) as { patternProperties?: Record<string, unknown> };
    expect(Object.keys(schema.patternProperties ?? {}).map((p) => new RegExp(p).test('x-common'))).toEqual([
      true,
    ]);
  });
});
