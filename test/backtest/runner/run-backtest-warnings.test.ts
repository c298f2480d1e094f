import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type BacktestRunOptions,
  EmptyReplayWindowError,
  runBacktest,
} from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const SOL = 'BINANCE_PERP_SOL_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-runner-warnings-');

/** Watches `watch` bars of `interval` (none when `watch` is empty); names `sym` in its params. */
const watcher = defineStrategy({
  name: 'watcher',
  params: z.object({
    sym: z.string(),
    watch: z.string(),
    interval: z.enum(['1m', '5m', '15m', '1h', '4h', '1d']),
  }),
  onStart: (ctx) => {
    if (ctx.params.watch !== '') ctx.watchBars(ctx.params.watch, ctx.params.interval);
  },
});

function options(
  recording: string,
  params: Record<string, string>,
  extra: Partial<BacktestRunOptions> = {},
): BacktestRunOptions {
  return {
    ...barRunOptions(
      recording,
      [anInstrument(BTC), anInstrument(SOL)],
      [{ id: 's1', strategy: watcher, params }],
    ),
    ...extra,
  };
}

async function warningsOf(opts: BacktestRunOptions): Promise<readonly string[] | undefined> {
  const result = await runBacktest(opts);
  result.dispose?.();
  return result.meta.warnings;
}

describe('backtest runner: setup warnings', () => {
  let bars = '';
  beforeAll(async () => {
    // Four BTC 1m klines (no trades) opening at T0 .. T0+3m.
    bars = await flatBarsRecordingIn(aTempDir(), 4, T0, BTC);
  });

  it('warns when a strategy watches bars of a sym the recordings hold nothing of', async () => {
    expect(await warningsOf(options(bars, { sym: SOL, watch: SOL, interval: '1m' }))).toEqual([
      `strategy s1 watched ${SOL} 1m bars, but the recordings held no data for that sym`,
    ]);
  });

  it('warns when a strategy watches an interval the recordings have too few finer bars to build', async () => {
    expect(await warningsOf(options(bars, { sym: BTC, watch: BTC, interval: '1h' }))).toEqual([
      `strategy s1 watched ${BTC} 1h bars, but no such bar closed: the 1m bars of ${BTC} in the recordings never completed one 1h bar`,
    ]);
  });

  it('builds watched 5m bars from the 1m klines instead of warning, once they complete one', async () => {
    const fiveMinutes = await flatBarsRecordingIn(aTempDir(), 6, T0, BTC);
    expect(await warningsOf(options(fiveMinutes, { sym: BTC, watch: BTC, interval: '5m' }))).toEqual([]);
  });

  it('warns when a strategy names a sym in its params that the recordings hold nothing of', async () => {
    expect(await warningsOf(options(bars, { sym: SOL, watch: '', interval: '1m' }))).toEqual([
      `strategy s1 names ${SOL} in its params, but the recordings held no data for that sym`,
    ]);
  });

  it('warns when a strategy names a sym in its params that is not one of the run instruments, though the recordings hold it', async () => {
    const onlySol = { instruments: [anInstrument(SOL)] };
    expect(await warningsOf(options(bars, { sym: BTC, watch: BTC, interval: '1m' }, onlySol))).toEqual([
      `strategy s1 names ${BTC} in its params, but it is not one of the run's instruments (${SOL}): the strategy receives none of its market data and the risk gate denies every order on it (instrumentKnown); list it under instruments`,
    ]);
  });

  it('warns when a strategy watches bars of a sym that is not one of the run instruments, though the recordings hold them', async () => {
    const btcWatcher = defineStrategy({
      name: 'btc-watcher',
      params: z.object({}),
      onStart: (ctx) => ctx.watchBars(BTC, '1m'),
    });
    const run = {
      ...options(bars, {}, { instruments: [anInstrument(SOL)] }),
      strategies: [{ id: 's1', strategy: btcWatcher, params: {} }],
    };
    expect(await warningsOf(run)).toEqual([
      `strategy s1 watched ${BTC} 1m bars, but ${BTC} is not one of the run's instruments (${SOL}): strategies receive market data of the run's instruments only; list it under instruments`,
    ]);
  });

  it('counts the orders the venue rejected and names the first one with its reason', async () => {
    // The bars trade at 100: 1000 BTC (the largest limit order) is 100 000 USDT, 10 000 of margin
    // at the default 10x plus the fee, more than the 10 000 USDT of cash.
    const bigBuyer = defineStrategy({
      name: 'big-buyer',
      params: z.object({}),
      onStart: (ctx) => ctx.watchBars(BTC, '1m'),
      onBar: (ctx) => ctx.order.limit({ sym: BTC, side: 'BUY', qty: D(1000), price: D(100) }),
    });
    const run = {
      ...options(bars, { sym: BTC, watch: BTC, interval: '1m' }),
      strategies: [{ id: 'big', strategy: bigBuyer, params: {} }],
    };
    const [warning, ...rest] = (await warningsOf(run)) ?? [];
    expect(rest).toEqual([]);
    expect(warning).toMatch(
      /^the venue rejected every order placed \((\d+) of \1\), so nothing could fill; the first: BINANCE_PERP_BTC_USDT BUY big-1: 401023 insufficient margin/,
    );
  });

  it('warns when a strategy acting on quotes only runs on bars, which it never sees', async () => {
    const quoter = defineStrategy({
      name: 'quoter',
      params: z.object({}),
      onQuote: (ctx, quote) => ctx.order.limit({ sym: quote.sym, side: 'BUY', qty: 1, price: quote.bid }),
    });
    const opts = barRunOptions(bars, [anInstrument(BTC), anInstrument(SOL)], [{ id: 'q', strategy: quoter }]);
    expect(await warningsOf(opts)).toEqual([
      `strategy q's market hooks are onQuote only, but the recordings held no quotes for ${BTC}, ${SOL}: onQuote never ran; the data holds bars, which a strategy watches with ctx.watchBars and onBar`,
    ]);
  });

  it('warns when the fill model the user set matches quotes and trades but an ordered sym had bars only', async () => {
    const limitBuyer = defineStrategy({
      name: 'limit-buyer',
      params: z.object({}),
      onStart: (ctx) => ctx.watchBars(BTC, '1m'),
      onBar: (ctx) => ctx.order.limit({ sym: BTC, side: 'BUY', qty: D(1), price: D(100) }),
    });
    const run = {
      ...options(bars, { sym: BTC, watch: BTC, interval: '1m' }),
      strategies: [{ id: 'lb', strategy: limitBuyer, params: {} }],
      fillModel: 'queue' as const,
    };
    expect(await warningsOf(run)).toEqual([
      `backtest.fillModel is queue, which matches resting orders against quotes, trades and books, but ${BTC} had bars only: a limit there never fills and a market order takes the last close; set backtest.fillModel: bar`,
    ]);
  });

  it('has no warnings when the watched bars are there', async () => {
    expect(await warningsOf(options(bars, { sym: BTC, watch: BTC, interval: '1m' }))).toEqual([]);
  });

  it('refuses a replay window that starts after the recordings end, naming both times', async () => {
    const from = T0 + 86_400_000;
    const run = runBacktest(options(bars, { sym: BTC, watch: BTC, interval: '1m' }, { window: { from } }));
    await expect(run).rejects.toBeInstanceOf(EmptyReplayWindowError);
    await expect(run).rejects.toMatchObject({
      // The last kline opens at T0+3m and is received at its close, T0+4m.
      recordedTo: T0 + 4 * 60_000,
      message:
        'the replay window starts at 2024-01-02 00:00:00 UTC, after the recordings end (2024-01-01 00:04:00 UTC): nothing was replayed',
    });
  });
});
