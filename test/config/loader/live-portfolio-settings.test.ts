import { describe, expect, it } from 'vitest';
import {
  formatConfigProblem,
  type LoadedConfig,
  livePortfolioWarnings,
  parseConfigText,
} from '../../../config/loader/index.ts';
import { BACKTEST_YAML, LIVE_ENV, LIVE_YAML, replaceLine } from '../../kit/config-texts.ts';

function loaded(text: string, env: Record<string, string> = {}): LoadedConfig {
  const result = parseConfigText(text, { file: 'c.yaml', env });
  if (!result.ok) throw new Error(result.problems.map(formatConfigProblem).join('\n'));
  return { config: result.config, source: result.source, file: '/x/c.yaml', dir: '/x' };
}

const SUBS = 'portfolios:\n  subs:\n    - { id: sub1, feeMarkupBps: 2 }\n';

describe('portfolio settings a live run ignores', () => {
  it("warns of a strategy's portfolio and the sub-portfolios in a live config: the API key picks the account", () => {
    const text = replaceLine(
      LIVE_YAML,
      '  - { id: mm, use: market-maker }',
      '  - { id: mm, use: market-maker, portfolio: sub1 }',
    );
    expect(livePortfolioWarnings(loaded(`${text}${SUBS}`, LIVE_ENV))).toEqual([
      'strategies[0].portfolio is ignored in mode live: a live run trades the portfolio of its API key (venue.apiKey) and pays the fees the venue charges (c.yaml:8:34)',
      'portfolios.subs is ignored in mode live: a live run trades the portfolio of its API key (venue.apiKey) and pays the fees the venue charges (c.yaml:10:3)',
    ]);
  });

  it('says nothing of a live config without them, nor of a backtest that uses them', () => {
    expect(livePortfolioWarnings(loaded(LIVE_YAML, LIVE_ENV))).toEqual([]);
    const backtest = replaceLine(
      BACKTEST_YAML,
      '    use: sma-cross',
      '    use: sma-cross\n    portfolio: sub1',
    );
    expect(livePortfolioWarnings(loaded(`${backtest}${SUBS}`))).toEqual([]);
  });
});
