import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatConfigProblem, parseConfigText } from '../../../config/loader/index.ts';

const TWAP = readFileSync('config/examples/twap-backtest.yaml', 'utf8');
const BLOCK_PARAMS = '    params:\n      sym: BINANCE_PERP_BTC_USDT\n      side: BUY\n      totalQty: 2\n';

const problems = (text: string): string[] => {
  const result = parseConfigText(text, { file: 'bt.yaml', env: { QTY: '3' } });
  return result.ok ? [] : result.problems.map(formatConfigProblem);
};

describe(`config loader: a \${VAR} reference unquoted inside a flow map`, () => {
  it('is one problem naming the reference and its place, saying to use block style or quotes', () => {
    expect(TWAP).toContain(BLOCK_PARAMS);
    const text = TWAP.replace(
      BLOCK_PARAMS,
      `    params: { sym: BINANCE_PERP_BTC_USDT, side: BUY, totalQty: \${QTY} }\n`,
    );
    const found = problems(text);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(
      /\$\{QTY\} stands unquoted inside \{ \}.*block style.*"\$\{QTY\}".*\(bt\.yaml:13:64\)/,
    );
  });

  it('parses in block style, the reference read as a number there', () => {
    const result = parseConfigText(TWAP.replace('      totalQty: 2\n', `      totalQty: \${QTY}\n`), {
      file: 'bt.yaml',
      env: { QTY: '3' },
    });
    if (!result.ok) throw new Error(result.problems.map(formatConfigProblem).join('\n'));
    expect(result.config.strategies[0]?.params).toMatchObject({ totalQty: 3 });
  });

  it('property: wherever the reference stands in a flow map, the only problem names it at its column', () => {
    const name = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,11}$/);
    fc.assert(
      fc.property(name, fc.integer({ min: 0, max: 2 }), fc.boolean(), (variable, at, withDefault) => {
        const reference = withDefault ? `\${${variable}:-1}` : `\${${variable}}`;
        const entries = ['sym: BINANCE_PERP_BTC_USDT', 'side: BUY', 'totalQty: 2'];
        entries[at] = `${(entries[at] as string).split(':')[0]}: ${reference}`;
        const line = `    params: { ${entries.join(', ')} }`;
        const found = problems(TWAP.replace(BLOCK_PARAMS, `${line}\n`));
        expect(found).toHaveLength(1);
        expect(found[0]).toContain(`${reference} stands unquoted`);
        expect(found[0]).toContain(`(bt.yaml:13:${line.indexOf(reference) + 1})`);
      }),
    );
  });
});
