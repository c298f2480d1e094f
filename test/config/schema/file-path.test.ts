import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../../config/loader/index.ts';
import { expandHome } from '../../../config/schema/file-path.ts';
import { strategySource } from '../../../config/schema/index.ts';

const HOME = homedir();

describe('expandHome', () => {
  it('reads a leading ~ as the home folder, as a shell does', () => {
    expect(expandHome('~')).toBe(HOME);
    expect(expandHome('~/data/btc.jsonl.gz')).toBe(join(HOME, 'data/btc.jsonl.gz'));
  });

  it('leaves every other path as it is', () => {
    for (const path of ['data/~/x.jsonl', './~/x', '~user/x', '~x', '/abs/~/x', 'a~b']) {
      expect(expandHome(path)).toBe(path);
    }
  });
});

describe('file paths of a config', () => {
  it('read ~/ as the home folder in every input and output path, plugin modules included', () => {
    const text = `mode: backtest
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mine, use: ~/strategies/breakout.ts }
backtest:
  recordings: [~/data/btc.jsonl.gz, data/eth.jsonl]
  startingCash: { USDT: 1000 }
report:
  json: ~/out/result.json
  html: out/report.html
`;
    const parsed = parseConfigText(text, { file: 'bt.yaml', env: {} });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const { config } = parsed;
    expect(config.backtest?.recordings).toEqual([join(HOME, 'data/btc.jsonl.gz'), 'data/eth.jsonl']);
    expect(config.report?.json).toBe(join(HOME, 'out/result.json'));
    expect(config.report?.html).toBe('out/report.html');
    expect(strategySource(config.strategies[0]?.use ?? '', '/cfg')).toEqual({
      kind: 'module',
      path: join(HOME, 'strategies/breakout.ts'),
    });
  });

  it('read ~/ in a paper source, a recording output and warm-up history', () => {
    const text = `mode: paper
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker }
paper:
  source: { kind: recording, path: ~/data/session.jsonl.gz }
recording:
  path: ~/out/paper.jsonl.gz
warmUp:
  bars: 30
  interval: 1m
  history: [~/data/history.jsonl.gz, { csv: ~/data/btc.csv, sym: BINANCE_PERP_BTC_USDT }]
`;
    const parsed = parseConfigText(text, { file: 'paper.yaml', env: {} });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const { config } = parsed;
    expect(config.paper?.source).toMatchObject({ path: join(HOME, 'data/session.jsonl.gz') });
    expect(config.recording?.path).toBe(join(HOME, 'out/paper.jsonl.gz'));
    expect(config.warmUp?.history).toEqual([
      join(HOME, 'data/history.jsonl.gz'),
      expect.objectContaining({ csv: join(HOME, 'data/btc.csv') }),
    ]);
  });
});
