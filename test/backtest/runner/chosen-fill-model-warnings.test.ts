import { describe, expect, it } from 'vitest';
import { chosenFillModelWarnings } from '../../../backtest/runner/chosen-fill-model-warnings.ts';
import { BTC } from '../../kit/sim-builders.ts';

const ETH = 'BINANCE_PERP_ETH_USDT';
const state = (parts: { quotes?: string[]; trades?: string[]; bars?: string[] }) => {
  const map = (syms: string[] = []) => new Map(syms.map((sym) => [sym, {}]));
  return {
    quotes: map(parts.quotes),
    trades: map(parts.trades),
    books: map(),
    closedBars: map(parts.bars),
  } as never;
};

describe('the fill model the user set, against the data of the syms ordered', () => {
  it.each(['queue', 'touch', 'through'] as const)(
    'warns when %s meets an ordered sym with bars only, naming the setting',
    (model) => {
      const [warning, ...rest] = chosenFillModelWarnings(
        model,
        state({ quotes: [BTC], bars: [BTC, ETH] }),
        new Set([BTC, ETH]),
        'paper.fillModel',
      );
      expect(rest).toEqual([]);
      expect(warning).toContain(`paper.fillModel is ${model}`);
      expect(warning).toContain(`but ${ETH} had bars only`);
      expect(warning).toContain('set paper.fillModel: bar');
    },
  );

  it('warns when bar meets an ordered sym with quotes or trades and no bars', () => {
    const [warning] = chosenFillModelWarnings(
      'bar',
      state({ trades: [ETH], quotes: [BTC], bars: [BTC] }),
      new Set([BTC, ETH]),
    );
    expect(warning).toContain(`backtest.fillModel is bar`);
    expect(warning).toContain(`but ${ETH} had quotes, trades or books and no bars`);
  });

  it('says nothing when the model fits every ordered sym, whatever the syms nobody ordered had', () => {
    expect(chosenFillModelWarnings('queue', state({ quotes: [BTC], bars: [ETH] }), new Set([BTC]))).toEqual(
      [],
    );
    expect(chosenFillModelWarnings('bar', state({ bars: [BTC], quotes: [ETH] }), new Set([BTC]))).toEqual([]);
    expect(chosenFillModelWarnings('touch', state({ quotes: [BTC], bars: [BTC] }), new Set([BTC]))).toEqual(
      [],
    );
  });
});
