import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  formatConfigProblem,
  type LoadedConfig,
  parseConfigText,
  type StrategyParamsRegistry,
  validateStrategyParams,
} from '../../../config/loader/index.ts';
import { BACKTEST_YAML, replaceLine } from '../../kit/config-texts.ts';

const registry = new Map([
  [
    'sma-cross',
    { params: z.strictObject({ fast: z.int().positive(), slow: z.int().positive().default(30) }) },
  ],
]);

function loaded(text: string): LoadedConfig {
  const result = parseConfigText(text, { file: 'bt.yaml', env: {} });
  if (!result.ok) throw new Error(result.problems.map(formatConfigProblem).join('\n'));
  return { config: result.config, source: result.source, file: '/x/bt.yaml', dir: '/x' };
}

/** The params problems of a config text, formatted as the CLI prints them; none when it passes. */
function problemsOf(text: string, schemas: StrategyParamsRegistry): string[] {
  const result = validateStrategyParams(loaded(text), schemas);
  return result.ok ? [] : result.problems.map(formatConfigProblem);
}

describe("strategy params, checked by the strategy's own schema", () => {
  it('parses params with the defaults of the schema', () => {
    const result = validateStrategyParams(loaded(BACKTEST_YAML), registry);
    expect(result.ok && result.params.get('sma')).toEqual({ fast: 10, slow: 30 });
  });

  it('reports a bad param with the same file:line:col as the config schema', () => {
    const text = replaceLine(BACKTEST_YAML, '      fast: 10', '      fast: ten');
    expect(problemsOf(text, registry)).toEqual([
      '✖ params.fast must be a number, not the string "ten" → at strategies[0].params.fast (bt.yaml:8:13)',
    ]);
  });

  it('reports a misspelled key of a nested plain z.object with its line and a did-you-mean', () => {
    const nested = new Map([
      [
        'sma-cross',
        {
          params: z.object({
            fast: z.int(),
            exit: z.object({ stopLoss: z.number().default(0.02) }).default({ stopLoss: 0.02 }),
          }),
        },
      ],
    ]);
    const text = replaceLine(
      BACKTEST_YAML,
      '      fast: 10',
      '      fast: 10\n      exit: { stopLos: 0.01 }',
    );
    expect(problemsOf(text, nested)).toEqual([
      '✖ exit.stopLos is not a known key (did you mean stopLoss?) → at strategies[0].params.exit.stopLos (bt.yaml:9:15)',
    ]);
  });

  it('reports a misspelled key inside a plain (not discriminated) union of objects with a did-you-mean', () => {
    const union = new Map([
      [
        'sma-cross',
        {
          params: z.object({
            fast: z.int(),
            exit: z.union([
              z.object({ stopLoss: z.number() }),
              z.object({ trailingPct: z.number(), activation: z.number().optional() }),
            ]),
          }),
        },
      ],
    ]);
    const text = replaceLine(
      BACKTEST_YAML,
      '      fast: 10',
      '      fast: 10\n      exit: { stopLos: 0.02 }',
    );
    expect(problemsOf(text, union)).toEqual([
      '✖ exit.stopLos is not a known key (did you mean stopLoss?) → at strategies[0].params.exit.stopLos (bt.yaml:9:15)',
    ]);
  });

  it('reports an unknown strategy name with the known ones', () => {
    const text = replaceLine(BACKTEST_YAML, '    use: sma-cross', '    use: sma-crosss');
    expect(problemsOf(text, registry)).toEqual([
      '✖ strategies[0].use names "sma-crosss", which is not a known strategy (built-in: sma-cross) → at strategies[0].use (bt.yaml:6:10)',
    ]);
  });
});

describe('the syms a strategy narrows its market data to, checked against the instruments', () => {
  const narrowing = (syms: (p: { fast: number }) => readonly string[]) =>
    new Map([['sma-cross', { params: z.object({ fast: z.number() }), syms }]]);

  it('passes syms among the instruments', () => {
    expect(
      problemsOf(
        BACKTEST_YAML,
        narrowing(() => ['BINANCE_PERP_BTC_USDT']),
      ),
    ).toEqual([]);
  });

  it('reports a sym that is not one of the instruments at the strategy entry, before any run', () => {
    const result = validateStrategyParams(
      loaded(BACKTEST_YAML),
      narrowing(() => ['BINANCE_PERP_ETH_USDT']),
    );
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.problems.map(formatConfigProblem)).toEqual([
      "✖ strategies[0] listens to BINANCE_PERP_ETH_USDT (its syms), which is not one of the run's instruments (BINANCE_PERP_BTC_USDT); list it under instruments → at strategies[0] (bt.yaml:5:5)",
    ]);
  });

  it('reports a syms that throws, with its message', () => {
    const throwing = narrowing(() => {
      throw new Error('no sym param');
    });
    expect(problemsOf(BACKTEST_YAML, throwing)).toEqual([
      '✖ strategies[0] has a syms(params) that threw: no sym param → at strategies[0] (bt.yaml:5:5)',
    ]);
  });
});

describe('strategy params of a plain z.object schema', () => {
  // A user's plugin, written as the README writes it: z.object, no .strict().
  const plain = new Map([
    ['sma-cross', { params: z.object({ fast: z.number(), period: z.number().default(3) }) }],
  ]);

  it('are parsed strictly: a misspelled name is a located error with a did-you-mean', () => {
    const text = replaceLine(BACKTEST_YAML, '      fast: 10', '      fast: 10\n      perod: 3');
    expect(problemsOf(text, plain)).toEqual([
      '✖ params.perod is not a known key (did you mean period?) → at strategies[0].params.perod (bt.yaml:9:7)',
    ]);
  });

  it('suggest the name whose letters were swapped (fats for fast)', () => {
    const text = replaceLine(BACKTEST_YAML, '      fast: 10', '      fats: 10');
    expect(problemsOf(text, plain).filter((p) => p.includes('fats'))).toEqual([
      '✖ params.fats is not a known key (did you mean fast?) → at strategies[0].params.fats (bt.yaml:8:7)',
    ]);
  });

  it('still parse when every name is known', () => {
    const result = validateStrategyParams(loaded(BACKTEST_YAML), plain);
    expect(result.ok && result.params.get('sma')).toEqual({ fast: 10, period: 3 });
  });

  it('keep extra keys when the schema asks for them with .loose()', () => {
    const loose = new Map([['sma-cross', { params: z.looseObject({ fast: z.number() }) }]]);
    const text = replaceLine(BACKTEST_YAML, '      fast: 10', '      fast: 10\n      note: x');
    const result = validateStrategyParams(loaded(text), loose);
    expect(result.ok && result.params.get('sma')).toEqual({ fast: 10, note: 'x' });
  });
});
