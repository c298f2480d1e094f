import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  defaultFillModelFor,
  defaultFillModelWarnings,
  sourceStartFillModelWarnings,
} from '../../../backtest/runner/default-fill-model.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { aBar, aMark, aQuote, aTrade, BTC } from '../../kit/sim-builders.ts';

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

describe('the fill model a run picks by itself', () => {
  it('is bar for bars alone, with mark prices beside them', () => {
    expect(
      defaultFillModelFor([aMark(0, 100), aBar(60_000, 100, 101, 99, 100), aBar(120_000, 100, 101, 99, 100)]),
    ).toBe('bar');
  });

  it('is queue as soon as anything an order trades against shows, wherever it is in the first events', () => {
    // Bars of ETH first (an earlier recording), BTC quotes later: queue, not bar.
    expect(
      defaultFillModelFor([
        aBar(60_000, 1, 1, 1, 1, ETH),
        aBar(120_000, 1, 1, 1, 1, ETH),
        aQuote(130_000, 99, 1, 101, 1),
      ]),
    ).toBe('queue');
    expect(defaultFillModelFor([aBar(60_000, 1, 1, 1, 1), aTrade(61_000, 100, 1, 'BUY')])).toBe('queue');
    expect(defaultFillModelFor([])).toBe('queue');
  });

  it('does not depend on the order of the first events', () => {
    const events: MarketEvent[] = [
      aBar(60_000, 1, 1, 1, 1, ETH),
      aQuote(1, 99, 1, 101, 1),
      aMark(2, 100),
      aBar(120_000, 1, 1, 1, 1),
    ];
    fc.assert(
      fc.property(fc.shuffledSubarray(events, { minLength: 1 }), (some) => {
        const expected = some.some((e) => e.kind === 'quote')
          ? 'queue'
          : some.some((e) => e.kind === 'bar')
            ? 'bar'
            : 'queue';
        expect(defaultFillModelFor(some)).toBe(expected);
      }),
    );
  });

  it('warns when bar was picked but quotes or trades came later, naming their syms', () => {
    const [warning] = defaultFillModelWarnings('bar', state({ bars: [ETH], quotes: [BTC] }), new Set([BTC]));
    expect(warning).toContain(`quotes, trades or books of ${BTC}`);
    expect(warning).toContain('set backtest.fillModel');
    expect(defaultFillModelWarnings('bar', state({ bars: [BTC, ETH] }), new Set([BTC]))).toEqual([]);
  });

  it('warns when queue was picked but a sym the strategies ordered had bars only', () => {
    const [warning] = defaultFillModelWarnings(
      'queue',
      state({ quotes: [BTC], bars: [BTC, ETH] }),
      new Set([BTC, ETH]),
    );
    expect(warning).toContain(`but ${ETH} had bars only`);
    // Bars only of a sym nobody ordered: nothing to say.
    expect(defaultFillModelWarnings('queue', state({ quotes: [BTC], bars: [ETH] }), new Set([BTC]))).toEqual(
      [],
    );
  });
});

describe('the fill model set by hand, checked against the first events of its source', () => {
  const events: MarketEvent[] = [
    aBar(60_000, 1, 1, 1, 1, ETH),
    aQuote(1, 99, 1, 101, 1),
    aMark(2, 100),
    aBar(120_000, 1, 1, 1, 1),
  ];

  it('warns of a quote or trade model exactly when a run would have chosen bar, naming every barred sym', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(events),
        fc.constantFrom('queue', 'touch', 'through', 'bar') as fc.Arbitrary<
          'queue' | 'touch' | 'through' | 'bar'
        >,
        (some, chosen) => {
          const warnings = sourceStartFillModelWarnings(chosen, some, '--fill-model');
          expect(warnings.length).toBe(chosen !== 'bar' && defaultFillModelFor(some) === 'bar' ? 1 : 0);
        },
      ),
    );
    expect(
      sourceStartFillModelWarnings(
        'touch',
        [events[0] as MarketEvent, events[3] as MarketEvent],
        '--fill-model',
      ),
    ).toEqual([
      `--fill-model is touch, which matches resting orders against quotes, trades and books, but ${BTC}, ${ETH} had bars only: a limit there never fills and a market order takes the last close; set --fill-model bar`,
    ]);
  });
});
