import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { parse, stringify } from 'yaml';
import { parseGridAxis } from '../../../config/cli/grid-spec.ts';
import { parseConfigText, parseSetOverride, strictYamlValue } from '../../../config/loader/index.ts';

const CONFIG = `mode: backtest
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - id: s
    use: ./plugin.ts
    params:
      note: \${NOTE}
backtest:
  recordings: [session.jsonl]
  startingCash: { USDT: 1000 }
`;

describe('YAML values typed on the command line or taken from the environment', () => {
  let warnings: MockInstance<typeof process.emitWarning>;
  beforeEach(() => {
    warnings = vi.spyOn(process, 'emitWarning');
  });
  afterEach(() => {
    warnings.mockRestore();
  });

  it('reads any plain value yaml writes as yaml’s parse does (-0 included)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = stringify(value);
        expect(strictYamlValue(text)).toEqual(parse(text));
      }),
    );
  });

  it('refuses an unresolved tag instead of printing a Node warning and dropping the tag', () => {
    expect(() => strictYamlValue('!foo 3')).toThrow(/Unresolved tag: !foo/);
    expect(() => parseSetOverride('paper.seed=!foo 3')).toThrow(
      /has a value that is not valid YAML: Unresolved tag: !foo/,
    );
    expect(() => parseGridAxis('params.period=7,!int8')).toThrow(/"!int8" is not a YAML value/);
    expect(warnings).not.toHaveBeenCalled();
  });

  it('keeps an environment value that starts with "!" as its text, not as an empty tagged value', () => {
    const parsed = parseConfigText(CONFIG, { file: 'bt.yaml', env: { NOTE: '!important' } });
    expect(parsed.ok && parsed.config.strategies?.[0]?.params).toEqual({ note: '!important' });
    expect(warnings).not.toHaveBeenCalled();
  });
});
