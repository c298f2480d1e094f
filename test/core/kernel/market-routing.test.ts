import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, Kernel, virtualScheduler } from '../../../core/kernel/index.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import {
  aFeedBar,
  anAccountUpdate,
  aPositionUpdate,
  aQuote,
  aTrade,
  BTC,
  ETH,
} from '../../kit/kernel-events.ts';
import { aRecordingPort } from '../../kit/recording-execution-port.ts';

/** In the data, not among the rig's instruments (BTC and ETH). */
const SOL = 'BINANCE_PERP_SOL_USDT';

/** A strategy noting every market event its hooks and streams receive, as `kind:sym`. */
function aProbe(seen: string[], syms?: (params: { sym: string }) => readonly string[]) {
  return defineStrategy({
    name: 'probe',
    params: z.object({ sym: z.string().default(BTC) }),
    ...(syms === undefined ? {} : { syms }),
    onQuote: (_ctx, q) => void seen.push(`quote:${q.sym}`),
    onTrade: (_ctx, t) => void seen.push(`trade:${t.sym}`),
    onBar: (_ctx, b) => void seen.push(`bar:${b.sym}`),
    setup: (ctx) => {
      for (const sym of [BTC, ETH, SOL]) {
        ctx.quotes(sym).subscribe((q) => seen.push(`quotes():${q.sym}`));
        ctx.trades(sym).subscribe((t) => seen.push(`trades():${t.sym}`));
        ctx.bars(sym, '1m').subscribe((b) => seen.push(`bars():${b.sym}`));
      }
      return undefined;
    },
  });
}

/**
 * A closed 1m feed bar of each sym, then a quote and a trade of each (the feed's bars come first,
 * so no bar is also built from the trades).
 */
function pushEach(push: (event: MarketEvent) => void, syms: readonly string[]): void {
  for (const sym of syms) push(aFeedBar(0, [100, 101, 99, 100, 5], sym));
  syms.forEach((sym, i) => {
    push(aQuote(60_001 + i, 100, 101, sym));
    push(aTrade(60_010 + i, 100, 1, sym));
  });
}

describe('market routing: strategies receive market data of the run instruments only', () => {
  it('delivers no quote, trade or bar of a sym outside the run instruments to hooks or streams', () => {
    const seen: string[] = [];
    const rig = aKernelRig([{ id: 'p', strategy: aProbe(seen) }]);
    pushEach((e) => rig.market.next(e), [BTC, SOL]);
    expect(seen.filter((s) => s.endsWith(SOL))).toEqual([]);
    expect(seen).toEqual([
      `bar:${BTC}`,
      `bars():${BTC}`,
      `quote:${BTC}`,
      `quotes():${BTC}`,
      `trade:${BTC}`,
      `trades():${BTC}`,
    ]);
  });

  it('still folds the other sym into the state, so a held position of it is marked to its price', () => {
    const rig = aKernelRig([]);
    // A position the account holds outside the run (a live account): long 2 @ 100, marked at 100.
    rig.kernel.push(aPositionUpdate(1, '2', { sym: SOL }));
    rig.kernel.push(anAccountUpdate(1, '10000'));
    rig.market.next(aTrade(2, 110, 1, SOL));
    expect(rig.kernel.state.equity().toFixed()).toBe('10020');
  });

  it('gives a strategy that declares syms only their quotes and trades, and the others every instrument', () => {
    const narrow: string[] = [];
    const wide: string[] = [];
    const rig = aKernelRig([
      { id: 'n', strategy: aProbe(narrow, (p) => [p.sym]), params: { sym: ETH } },
      { id: 'w', strategy: aProbe(wide) },
    ]);
    pushEach((e) => rig.market.next(e), [BTC, ETH]);
    expect(narrow.filter((s) => !s.startsWith('bar'))).toEqual([
      `quote:${ETH}`,
      `quotes():${ETH}`,
      `trade:${ETH}`,
      `trades():${ETH}`,
    ]);
    // Bars follow watchBars / ctx.bars, which the probe asked for on every sym.
    expect(narrow.filter((s) => s.startsWith('bar')).sort()).toEqual([
      `bar:${BTC}`,
      `bar:${ETH}`,
      `bars():${BTC}`,
      `bars():${ETH}`,
    ]);
    expect(wide.filter((s) => s.startsWith('quote:'))).toEqual([`quote:${BTC}`, `quote:${ETH}`]);
  });

  it('refuses to build a kernel whose strategy declares a sym outside the run instruments, naming both', () => {
    const build = () =>
      new Kernel({
        instruments: [anInstrument(BTC)],
        market: [],
        execution: aRecordingPort(),
        gate: new RiskGate(),
        scheduler: virtualScheduler(0),
        strategies: [{ id: 'n', strategy: aProbe([], (p) => [p.sym]), params: { sym: SOL } }],
      });
    expect(build).toThrow(TypeError);
    expect(build).toThrow(
      `kernel: strategy n (probe) listens to ${SOL} (its syms), which is not one of the run's instruments (${BTC}); list it under instruments`,
    );
  });

  it('delivers the bars of a (sym, interval) a strategy starts watching mid-run, after bars of it went by unwatched', () => {
    const seen: number[] = [];
    const late = defineStrategy({
      name: 'late-watcher',
      params: z.object({}),
      onTrade: (ctx) => ctx.watchBars(ETH, '1m'),
      onBar: (_ctx, b) => void seen.push(b.openTime),
    });
    const rig = aKernelRig([{ id: 'l', strategy: late }]);
    rig.market.next(aFeedBar(0, [100, 101, 99, 100, 5], ETH));
    rig.market.next(aFeedBar(60_000, [100, 101, 99, 100, 5], ETH));
    rig.market.next(aTrade(120_000, 100, 1, BTC));
    rig.market.next(aFeedBar(120_000, [100, 101, 99, 100, 5], ETH));
    rig.market.next(aFeedBar(180_000, [100, 101, 99, 100, 5], ETH));
    expect(seen).toEqual([120_000, 180_000]);
  });
});
