import { describe, expect, it } from 'vitest';
import {
  formatConfigProblem,
  type LoadedConfig,
  parseConfigText,
  unusedSectionWarnings,
} from '../../../config/loader/index.ts';
import { BACKTEST_YAML, LIVE_ENV, LIVE_YAML } from '../../kit/config-texts.ts';

function loaded(text: string, env: Record<string, string> = {}): LoadedConfig {
  const result = parseConfigText(text, { file: 'c.yaml', env });
  if (!result.ok) throw new Error(result.problems.map(formatConfigProblem).join('\n'));
  return { config: result.config, source: result.source, file: '/x/c.yaml', dir: '/x' };
}

describe("sections a config's mode ignores", () => {
  it('warns of backtest settings in a paper config, saying where paper fees come from', () => {
    const paper = `mode: paper
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker }
paper: { lockstep: true }
backtest:
  recordings: [a.jsonl]
  startingCash: { USDT: 1000 }
  fees: { model: flat, makerBps: 2, takerBps: 10 }
`;
    expect(unusedSectionWarnings(loaded(paper))).toEqual([
      "backtest is ignored in mode paper: it applies to mode backtest only; paper fills pay the instruments' own fee rates (instruments[].overrides.makerFee / takerFee) with the sub-portfolio markups, not backtest.fees (c.yaml:6:1)",
    ]);
  });

  it('accepts and warns of a paper config whose backtest section holds only fees, as the README shows', () => {
    const paper = `mode: paper
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker }
paper: { lockstep: true }
backtest:
  fees: { model: flat, makerBps: 2, takerBps: 10 }
`;
    expect(unusedSectionWarnings(loaded(paper))).toEqual([
      "backtest is ignored in mode paper: it applies to mode backtest only; paper fills pay the instruments' own fee rates (instruments[].overrides.makerFee / takerFee) with the sub-portfolio markups, not backtest.fees (c.yaml:6:1)",
    ]);
  });

  it('still refuses what is wrong in an ignored section, other than a missing key', () => {
    const paper = `mode: paper
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker }
paper: { lockstep: true }
backtest:
  fees: { model: flat, makerBps: two, takerBps: 10 }
  fess: 1
`;
    const result = parseConfigText(paper, { file: 'c.yaml', env: {} });
    expect(result.ok ? [] : result.problems.map(formatConfigProblem)).toEqual([
      '✖ fees.makerBps must be a number, not the string "two" → at backtest.fees.makerBps (c.yaml:7:34)',
      '✖ backtest.fess is not a known key (did you mean fees?) → at backtest.fess (c.yaml:8:3)',
    ]);
  });

  it('accepts a backtest config with a venue section lacking its URLs', () => {
    const text = `${BACKTEST_YAML}venue: { restRatePerSec: 5 }\n`;
    expect(unusedSectionWarnings(loaded(text))).toEqual([
      'venue is ignored in mode backtest: it applies to mode live and paper only (c.yaml:15:1)',
    ]);
  });

  it('warns of paper, venue, recording and shutdown sections in a backtest, not of defaults', () => {
    expect(unusedSectionWarnings(loaded(BACKTEST_YAML))).toEqual([]);
    const text = `${BACKTEST_YAML}paper: { lockstep: true }\nrecording: { path: out/r.jsonl.gz }\nshutdown: { cancelAllOrders: false }\n`;
    expect(unusedSectionWarnings(loaded(text))).toEqual([
      'paper is ignored in mode backtest: it applies to mode paper only (c.yaml:15:1)',
      'recording is ignored in mode backtest: it applies to mode live and paper only (c.yaml:16:1)',
      'shutdown is ignored in mode backtest: it applies to mode live and paper only (c.yaml:17:1)',
    ]);
  });

  it('warns of metrics and logging sections in a backtest, which reads neither', () => {
    const text = `${BACKTEST_YAML}metrics: { enabled: true }\nlogging: { level: debug }\n`;
    expect(unusedSectionWarnings(loaded(text))).toEqual([
      'metrics is ignored in mode backtest: it applies to mode live and paper only (c.yaml:15:1)',
      'logging is ignored in mode backtest: it applies to mode live and paper only (c.yaml:16:1)',
    ]);
  });

  it('says nothing of the sections a live config uses', () => {
    expect(unusedSectionWarnings(loaded(LIVE_YAML, LIVE_ENV))).toEqual([]);
  });
});
