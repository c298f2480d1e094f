import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BacktestRunOptions, runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { barsRecordingIn, decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ETH = 'OKX_SPOT_ETH_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-assemble-');

/** Buys 1 of each sym of `buy` after the first bar of that sym, and holds; watches `watch`. */
const buyer = defineStrategy({
  name: 'buyer',
  params: z.object({ buy: z.array(z.string()), watch: z.array(z.string()) }),
  state: () => ({ bought: new Set<string>() }),
  onStart: (ctx) => {
    for (const sym of ctx.params.watch) ctx.watchBars(sym, '1m');
  },
  onBar: (ctx, bar) => {
    if (!ctx.params.buy.includes(bar.sym) || ctx.state.bought.has(bar.sym)) return undefined;
    ctx.state.bought.add(bar.sym);
    return ctx.order.market({ sym: bar.sym, side: 'BUY', qty: '1' });
  },
});

/** Closes as [first, last]: BTC falls 100 -> 90 (-10 %), ETH rises 50 -> 60 (+20 %). */
const closes = (from: number, to: number) =>
  Array.from({ length: 5 }, (_, i) => {
    const close = from + ((to - from) * i) / 4;
    return [close, close + 1, close - 1, close];
  });

async function optionsFor(
  params: { buy: string[]; watch: string[] },
  instruments: string[],
): Promise<BacktestRunOptions> {
  // BTC's recording comes first, so BTC is the first sym the sampler sees.
  const btc = await barsRecordingIn(aTempDir(), closes(100, 90), T0, BTC);
  const eth = await barsRecordingIn(aTempDir(), closes(50, 60), T0, ETH);
  return {
    recordings: [btc, eth],
    decode: decodeMarketRecord,
    instruments: instruments.map((sym) => anInstrument(sym)),
    strategies: [{ id: 's1', strategy: buyer, params }],
    gate: new RiskGate(),
    startingCash: D(100_000),
    closeAtEnd: false,
  };
}

describe('the buy & hold of a backtest', () => {
  it('is that of the sym the strategies traded, not of the first sym in the recordings', async () => {
    const result = await runBacktest(await optionsFor({ buy: [ETH], watch: [BTC, ETH] }, [ETH]));
    result.dispose?.();
    // BTC, first in the recordings but not an instrument of the run, is not even charted.
    expect(result.prices.map((series) => series.sym)).toEqual([ETH]);
    expect(result.metrics.buyAndHoldReturn).toBeCloseTo(0.2, 12);
    expect(result.metrics.buyAndHoldBenchmark).toEqual({ syms: [ETH], basis: 'traded' });
  });

  it('is an equal-weight basket of the syms traded when there are several', async () => {
    const result = await runBacktest(await optionsFor({ buy: [ETH, BTC], watch: [BTC, ETH] }, [BTC, ETH]));
    result.dispose?.();
    // mean(-10 %, +20 %) = +5 %
    expect(result.metrics.buyAndHoldReturn).toBeCloseTo(0.05, 12);
    expect(new Set(result.metrics.buyAndHoldBenchmark?.syms)).toEqual(new Set([BTC, ETH]));
    expect(result.metrics.buyAndHoldBenchmark?.basis).toBe('traded');
  });

  it('is that of the instruments the strategies name when they traded nothing, else the first recorded sym', async () => {
    const named = await runBacktest(await optionsFor({ buy: [], watch: [ETH] }, [BTC, ETH]));
    named.dispose?.();
    expect(named.metrics.buyAndHoldReturn).toBeCloseTo(0.2, 12);
    expect(named.metrics.buyAndHoldBenchmark).toEqual({ syms: [ETH], basis: 'named' });
    const unnamed = await runBacktest(await optionsFor({ buy: [], watch: [] }, []));
    unnamed.dispose?.();
    expect(unnamed.metrics.buyAndHoldReturn).toBeCloseTo(-0.1, 12);
    expect(unnamed.metrics.buyAndHoldBenchmark).toEqual({ syms: [BTC], basis: 'recording' });
  });
});
