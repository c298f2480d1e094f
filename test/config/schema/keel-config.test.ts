import { describe, expect, it } from 'vitest';
import { formatConfigProblem, parseConfigText } from '../../../config/loader/index.ts';

/** A backtest of two strategies, each line given (`portfolio: ...` or nothing), with two sub-portfolios. */
function twoStrategies(firstPortfolio: string, secondPortfolio: string): string {
  return `mode: backtest
portfolios:
  subs:
    - { id: pa, feeMarkupBps: 0 }
    - { id: pb, feeMarkupBps: 10 }
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - id: a
    use: sma-cross
${firstPortfolio}
  - id: b
    use: sma-cross
${secondPortfolio}
backtest:
  recordings: [a.jsonl]
  startingCash: { USDT: 1000 }
`;
}

function problemsOf(text: string): string[] {
  const result = parseConfigText(text, { file: 'c.yaml', env: {} });
  return result.ok ? [] : result.problems.map(formatConfigProblem);
}

describe('one run trades one portfolio', () => {
  it('refuses strategies naming different sub-portfolios, at the second one and its line', () => {
    expect(problemsOf(twoStrategies('    portfolio: pa', '    portfolio: pb'))).toEqual([
      "✖ strategies[1].portfolio names portfolio pb, but one run trades one portfolio, and strategies[0]'s is pa: run each portfolio's strategies in a run of their own → at strategies[1].portfolio (c.yaml:13:16)",
    ]);
  });

  it('refuses a strategy that names none (the main portfolio) beside one that names a sub-portfolio', () => {
    expect(problemsOf(twoStrategies('    portfolio: pa', ''))).toEqual([
      "✖ strategies[1] names no portfolio, so trades in the main one (main), but one run trades one portfolio, and strategies[0]'s is pa: run each portfolio's strategies in a run of their own → at strategies[1] (c.yaml:11:5)",
    ]);
    expect(problemsOf(twoStrategies('', '    portfolio: pb'))[0]).toMatch(
      /^✖ strategies\[1\]\.portfolio names portfolio pb, but one run trades one portfolio, and strategies\[0\]'s is the main one \(main\):/,
    );
  });

  it('takes strategies that all name the same portfolio, the main one named or not', () => {
    expect(problemsOf(twoStrategies('    portfolio: pb', '    portfolio: pb'))).toEqual([]);
    expect(problemsOf(twoStrategies('    portfolio: main', ''))).toEqual([]);
    expect(problemsOf(twoStrategies('', ''))).toEqual([]);
  });
});
