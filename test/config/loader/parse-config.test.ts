import { describe, expect, it } from 'vitest';
import {
  type ConfigParseResult,
  formatConfigProblem,
  type OverrideArg,
  parseConfigText,
  unsetOverride,
} from '../../../config/loader/index.ts';
import { Secret } from '../../../config/schema/index.ts';
import { D } from '../../../core/model/index.ts';
import { BACKTEST_YAML, LIVE_ENV, LIVE_YAML, replaceLine } from '../../kit/config-texts.ts';

function lines(result: ConfigParseResult): string[] {
  return result.ok ? [] : result.problems.map(formatConfigProblem);
}

function parseBacktest(text: string, overrides: OverrideArg[] = []): ConfigParseResult {
  return parseConfigText(text, { file: 'bt.yaml', env: {}, overrides });
}

describe('config parsing', () => {
  it('accepts a valid backtest config and applies defaults and conversions', () => {
    const result = parseBacktest(BACKTEST_YAML);
    if (!result.ok) throw new Error(lines(result).join('\n'));
    const { config } = result;
    expect(config.mode).toBe('backtest');
    expect(config.instruments).toEqual([{ sym: 'BINANCE_PERP_BTC_USDT', overrides: {} }]);
    expect(config.strategies[0]?.risk?.maxPositionQty?.equals(D('0.5'))).toBe(true);
    expect(config.backtest?.startingCash.USDT?.equals(D(1000))).toBe(true);
    expect(config.backtest?.fillModel).toBe('touch');
    expect(config.backtest?.latency).toBeUndefined();
    expect(config.risk.killSwitch).toEqual({ tripTo: 'HALTED', cancelOrdersOnHalt: true });
    expect(config.backtest?.closeAtEnd).toBe(true);
    expect(config.logging.level).toBe('info');
    expect(config.portfolios).toEqual({ main: 'main', subs: [] });
  });

  it('reports a value out of range as one sentence at the value', () => {
    const text = replaceLine(BACKTEST_YAML, '      maxPositionQty: 0.5', '      maxPositionQty: -1');
    expect(lines(parseBacktest(text))).toEqual([
      '✖ risk.maxPositionQty must be positive → at strategies[0].risk.maxPositionQty (bt.yaml:10:23)',
    ]);
  });

  it('reports a wrong type, naming what was found', () => {
    const text = replaceLine(BACKTEST_YAML, '  recordings: [a.jsonl]', '  recordings: a.jsonl');
    expect(lines(parseBacktest(text))).toEqual([
      '✖ backtest.recordings must be a list (lines starting with "- "), not the string "a.jsonl" → at backtest.recordings (bt.yaml:12:15)',
    ]);
  });

  it('reports an unknown key at the key, so a typo never falls back to a default', () => {
    const text = `${BACKTEST_YAML}  closeAtEnds: false\n`;
    expect(lines(parseBacktest(text))).toEqual([
      '✖ backtest.closeAtEnds is not a known key (did you mean closeAtEnd?) → at backtest.closeAtEnds (bt.yaml:15:3)',
    ]);
  });

  it("reports a missing required field at its parent's key", () => {
    const text = replaceLine(BACKTEST_YAML, '  startingCash: { USDT: 1000 }', '');
    expect(lines(parseBacktest(text))).toEqual([
      '✖ backtest.startingCash is required → at backtest.startingCash (bt.yaml:11:1)',
    ]);
  });

  it('reports a missing section of the mode at mode', () => {
    const text = replaceLine(BACKTEST_YAML, 'mode: backtest', 'mode: paper');
    expect(lines(parseBacktest(text))).toEqual([
      '✖ mode needs a paper section when mode is paper → at mode (bt.yaml:1:7)',
    ]);
  });

  it('refuses a run name that would place its default files outside out/ or in new folders', () => {
    for (const name of ['../evil', 'a/b', '.hidden', 'a\\b', 'with space']) {
      const text = `name: '${name}'\n${BACKTEST_YAML}`;
      expect(lines(parseBacktest(text))).toEqual([
        `✖ name must be 1 to 80 letters, digits, "_", "." or "-", starting with a letter or digit (it names files in out/) → at name (bt.yaml:1:7)`,
      ]);
    }
    expect(lines(parseBacktest(`name: sma-cross_v2.1\n${BACKTEST_YAML}`))).toEqual([]);
  });

  it('reports an unknown enum value with the allowed ones', () => {
    const text = replaceLine(BACKTEST_YAML, 'mode: backtest', 'mode: bactest');
    expect(lines(parseBacktest(text))).toEqual([
      '✖ mode must be one of "live", "paper", "backtest", not the string "bactest" → at mode (bt.yaml:1:7)',
    ]);
  });

  it('reports a malformed sym with the model parser’s reason', () => {
    const text = replaceLine(BACKTEST_YAML, '  - BINANCE_PERP_BTC_USDT', '  - BINANCE_FUTURES_BTC_USDT');
    const [line, ...rest] = lines(parseBacktest(text));
    expect(rest).toEqual([]);
    expect(line).toMatch(/^✖ instruments\[0\]: sym "BINANCE_FUTURES_BTC_USDT": unknown business FUTURES/);
    expect(line).toMatch(/→ at instruments\[0\] \(bt\.yaml:3:5\)$/);
  });

  it('reports a file that is not a map of settings', () => {
    expect(lines(parseBacktest('- a\n- b\n'))).toEqual([
      '✖ the config must be a map (indented key: value lines), not a list (bt.yaml:1:1)',
    ]);
    expect(lines(parseBacktest(''))).toEqual([
      '✖ the config must be a map (indented key: value lines), not an empty value (bt.yaml:1:1)',
    ]);
  });

  it('reports a repeated key as a YAML error at the repeat', () => {
    const text = replaceLine(BACKTEST_YAML, '  fillModel: touch', '  fillModel: touch\n  fillModel: queue');
    expect(lines(parseBacktest(text))).toEqual([
      expect.stringMatching(/^✖ YAML syntax error: .*unique.* \(bt\.yaml:15:3\)$/),
    ]);
  });

  it('reports a YAML syntax error with its place', () => {
    const text = replaceLine(BACKTEST_YAML, '  fillModel: touch', '  fillModel: [touch');
    const [line] = lines(parseBacktest(text));
    expect(line).toMatch(/^✖ YAML syntax error: .* \(bt\.yaml:\d+:\d+\)$/);
  });

  it('lists the first 10 syntax errors of a file that is not YAML, and counts the rest', () => {
    const text = Array.from({ length: 30 }, (_, i) => `k${i}: [1\n`).join('');
    const out = lines(parseBacktest(text));
    expect(out.length).toBe(11);
    expect(out.slice(0, 10).every((line) => line.startsWith('✖ YAML syntax error: '))).toBe(true);
    expect(out[10]).toMatch(/^✖ YAML has \d+ more syntax errors: is bt\.yaml a YAML config\?$/);
  });

  it('refuses YAML the parser only warns about, at its place: an unknown tag would be read as text, an unknown directive skipped', () => {
    const tagged = replaceLine(BACKTEST_YAML, '  fillModel: touch', '  fillModel: !model touch');
    expect(lines(parseBacktest(tagged))).toEqual([
      expect.stringMatching(/^✖ YAML is not read by Keel: Unresolved tag: !model \(bt\.yaml:14:14\)$/),
    ]);
    expect(lines(parseBacktest(`%KEEL 2\n---\n${BACKTEST_YAML}`))).toEqual([
      '✖ YAML is not read by Keel: Unknown directive %KEEL (bt.yaml:1:1)',
    ]);
  });

  it('refuses repeated strategy ids at the repeat', () => {
    const text = BACKTEST_YAML.replace('backtest:\n', '  - { id: sma, use: grid }\nbacktest:\n');
    expect(lines(parseBacktest(text))).toEqual([
      '✖ strategies[1].id repeats "sma", which must be unique → at strategies[1].id (bt.yaml:11:11)',
    ]);
  });

  it('refuses a per-sym limit keyed by a sym that is not among the instruments, at the key', () => {
    const text = BACKTEST_YAML.replace(
      '      maxPositionQty: 0.5\n',
      '      maxPositionQty: 0.5\n      maxPositionQtyBySym: { BINANCE_PERP_BTC_USDT: 0.2, BINANCE_PERP_ETH_USDT: 1 }\n',
    ).replace('backtest:\n', 'risk:\n  maxPositionQtyBySym:\n    BINANCE_PERP_BTCUSDT: 0.1\nbacktest:\n');
    // In the order of the file: the strategy's flow map (line 11), then the global block map (line 14).
    expect(lines(parseBacktest(text))).toEqual([
      '✖ maxPositionQtyBySym.BINANCE_PERP_ETH_USDT names "BINANCE_PERP_ETH_USDT", which is not among the instruments (BINANCE_PERP_BTC_USDT): its limit would never apply → at strategies[0].risk.maxPositionQtyBySym.BINANCE_PERP_ETH_USDT (bt.yaml:11:81)',
      '✖ maxPositionQtyBySym.BINANCE_PERP_BTCUSDT names "BINANCE_PERP_BTCUSDT", which is not among the instruments (BINANCE_PERP_BTC_USDT): its limit would never apply → at risk.maxPositionQtyBySym.BINANCE_PERP_BTCUSDT (bt.yaml:14:27)',
    ]);
  });

  it('names an invalid sym listed twice once per entry, not as a repeat of "undefined"', () => {
    const text = BACKTEST_YAML.replace('  - BINANCE_PERP_BTC_USDT\n', '  - A\n  - A\n');
    const out = lines(parseBacktest(text));
    expect(out.join('\n')).not.toContain('undefined');
    expect(out.filter((line) => line.includes('instruments[0]')).length).toBe(1);
    expect(out.filter((line) => line.includes('instruments[1]')).length).toBe(1);
  });
});

describe('secrets in the config', () => {
  it(`substitutes \${VAR} references and keeps credentials as redacting Secrets`, () => {
    const result = parseConfigText(LIVE_YAML, { file: 'live.yaml', env: LIVE_ENV });
    if (!result.ok) throw new Error(lines(result).join('\n'));
    const venue = result.config.venue;
    expect(venue?.apiSecret).toBeInstanceOf(Secret);
    expect(venue?.apiSecret.reveal()).toBe(LIVE_ENV.T_SECRET);
    expect(venue?.apiKey.reveal()).toBe(LIVE_ENV.T_KEY);
    expect(venue?.privateWsUrl).toBe('wss://venue.test/v1/private');
    expect(venue?.marketDataWsUrl).toBe('wss://venue.test/marketdata/v2/public');
  });

  it('names the unset variable of a missing secret, at the value', () => {
    const result = parseConfigText(LIVE_YAML, { file: 'live.yaml', env: { T_KEY: 'k' } });
    expect(lines(result)).toEqual([
      `✖ venue.apiSecret refers to \${T_SECRET}, which is not set (environment or .env) → at venue.apiSecret (live.yaml:5:14)`,
    ]);
  });

  it('refuses a secret written inline in the file', () => {
    const text = replaceLine(LIVE_YAML, `  apiSecret: \${T_SECRET}`, '  apiSecret: hunter2');
    expect(lines(parseConfigText(text, { file: 'live.yaml', env: LIVE_ENV }))).toEqual([
      `✖ venue.apiSecret must be an \${ENV_VAR} reference, not the secret itself, so it never sits in a file → at venue.apiSecret (live.yaml:5:14)`,
    ]);
  });

  it(`uses \${VAR:-default} when the variable is unset, and $\${ for a literal`, () => {
    const text = `${LIVE_YAML}report:\n  json: "$\${literal} \${RUN_NAME:-fallback}.json"\n`;
    const result = parseConfigText(text, { file: 'live.yaml', env: LIVE_ENV });
    expect(result.ok && result.config.report?.json).toBe(`\${literal} fallback.json`);
  });

  it('reads a whole plain reference as YAML, so a port from the environment is a number', () => {
    const text = `${LIVE_YAML}metrics:\n  enabled: true\n  port: \${PORT}\n`;
    const result = parseConfigText(text, { file: 'live.yaml', env: { ...LIVE_ENV, PORT: '9100' } });
    expect(result.ok && result.config.metrics).toEqual({ enabled: true, host: '127.0.0.1', port: 9100 });
  });
});

describe('--set overrides', () => {
  it('apply before validation, values read as YAML scalars', () => {
    const result = parseBacktest(BACKTEST_YAML, ['strategies.0.params.fast=12', 'backtest.closeAtEnd=false']);
    if (!result.ok) throw new Error(lines(result).join('\n'));
    expect(result.config.strategies[0]?.params).toEqual({ fast: 12 });
    expect(result.config.backtest?.closeAtEnd).toBe(false);
  });

  it('point at the --set argument when the value it sets is invalid', () => {
    expect(lines(parseBacktest(BACKTEST_YAML, ['strategies.0.risk.maxPositionQty=0']))).toEqual([
      '✖ risk.maxPositionQty must be positive → at strategies[0].risk.maxPositionQty (--set strategies.0.risk.maxPositionQty=0)',
    ]);
  });

  it('refuse an index past the end of a list', () => {
    expect(lines(parseBacktest(BACKTEST_YAML, ['strategies.3.params.fast=12']))).toEqual([
      '✖ --set cannot set item 3: strategies has 1 item → at strategies[3].params.fast (--set strategies.3.params.fast=12)',
    ]);
  });

  it('refuse a malformed path', () => {
    expect(lines(parseBacktest(BACKTEST_YAML, ['strategies..fast=12']))).toEqual([
      '✖ --set segment 2 of "strategies..fast" is an empty segment; use keys and numbers separated by dots (--set strategies..fast=12)',
    ]);
  });

  it('refuse a path through a plain value', () => {
    expect(lines(parseBacktest(BACKTEST_YAML, ['mode.x=1']))).toEqual([
      '✖ --set cannot set "x" inside mode, which is a plain value → at mode.x (--set mode.x=1)',
    ]);
  });
});

describe('--unset overrides', () => {
  it('remove a key so that its absence applies', () => {
    const result = parseBacktest(BACKTEST_YAML, [unsetOverride('backtest.fillModel')]);
    if (!result.ok) throw new Error(lines(result).join('\n'));
    expect(parseBacktest(BACKTEST_YAML).ok && result.config.backtest?.fillModel).toBeUndefined();
  });

  it('remove a whole map, which a later --set then fills afresh', () => {
    const result = parseBacktest(BACKTEST_YAML, [
      unsetOverride('strategies.0.risk'),
      'strategies.0.risk.maxNotionalPerOrder=2',
    ]);
    if (!result.ok) throw new Error(lines(result).join('\n'));
    expect(result.config.strategies[0]?.risk?.maxPositionQty).toBeUndefined();
    expect(result.config.strategies[0]?.risk?.maxNotionalPerOrder?.toString()).toBe('2');
  });

  it('point at the --unset when what it removed was required', () => {
    expect(lines(parseBacktest(BACKTEST_YAML, [unsetOverride('backtest.startingCash')]))).toEqual([
      '✖ backtest.startingCash is required → at backtest.startingCash (--unset backtest.startingCash)',
    ]);
  });

  it('refuse a path the config does not have, so that a typo does not pass silently', () => {
    expect(lines(parseBacktest(BACKTEST_YAML, [unsetOverride('backtest.fillModle')]))).toEqual([
      '✖ --unset has nothing to remove: the config has no backtest.fillModle → at backtest.fillModle (--unset backtest.fillModle)',
    ]);
  });
});

describe('unknown keys', () => {
  it('lists no suggestion when nothing is close', () => {
    const text = `${BACKTEST_YAML}colour: blue\n`;
    expect(lines(parseBacktest(text))).toEqual(['✖ colour is not a known key → at colour (bt.yaml:15:1)']);
  });

  it('suggests the key inside a union branch the value entered', () => {
    const text = replaceLine(
      BACKTEST_YAML,
      '  fillModel: touch',
      '  fillModel: { name: queue, slipageTicks: 1 }',
    );
    expect(lines(parseBacktest(text))).toEqual([
      '✖ fillModel.slipageTicks is not a known key (did you mean slippageTicks?) → at backtest.fillModel.slipageTicks (bt.yaml:14:29)',
    ]);
  });

  it('names the form a key goes with when another form of the map takes it, instead of a sibling it does not take either', () => {
    const text = replaceLine(
      BACKTEST_YAML,
      '  fillModel: touch',
      '  fillModel: touch\n  fees: { model: instrument, makerBps: 3 }',
    );
    expect(lines(parseBacktest(text))).toEqual([
      '✖ fees.makerBps is not a known key here: it goes with model: flat → at backtest.fees.makerBps (bt.yaml:15:30)',
    ]);
  });

  it('refuses a taker fee below zero, which no venue pays (a sign slip would make every fee income)', () => {
    const text = replaceLine(
      BACKTEST_YAML,
      '  fillModel: touch',
      '  fillModel: touch\n  fees: { model: flat, makerBps: -1, takerBps: -5 }',
    );
    expect(lines(parseBacktest(text))).toEqual([
      '✖ fees.takerBps must be zero or more → at backtest.fees.takerBps (bt.yaml:15:48)',
    ]);
  });
});
