import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type BacktestRunOptions,
  runBacktest,
  WarmUpTookEverythingError,
} from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeMarketRecord, flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-test-run-options-');
const idle = defineStrategy({
  name: 'idle',
  params: z.object({}),
  onStart: (ctx) => ctx.watchBars(BTC, '1m'),
});

async function optionsWith(overrides: Partial<BacktestRunOptions>): Promise<BacktestRunOptions> {
  return {
    recordings: [await flatBarsRecordingIn(aTempDir(), 20, T0, BTC)],
    decode: decodeMarketRecord,
    instruments: [anInstrument(BTC)],
    strategies: [{ id: 's', strategy: idle }],
    gate: new RiskGate(),
    startingCash: D(10_000),
    ...overrides,
  };
}

describe('runBacktest given an option it cannot run with', () => {
  it.each<[string, Partial<BacktestRunOptions>, RegExp]>([
    [
      'window.from NaN',
      { window: { from: Number.NaN } },
      /^backtest: window\.from must be a time \(epoch ms\), got NaN$/,
    ],
    [
      'window.to NaN',
      { window: { to: Number.NaN } },
      /^backtest: window\.to must be a time \(epoch ms\), got NaN$/,
    ],
    [
      'warmUp.periodMs 0',
      { warmUp: { periodMs: 0 } },
      /^backtest: warmUp\.periodMs must be a positive number of ms, got 0$/,
    ],
    [
      'warmUp.periodMs below 0',
      { warmUp: { periodMs: -60_000 } },
      /^backtest: warmUp\.periodMs must be a positive number of ms, got -60000$/,
    ],
    [
      'warmUp.alignMs 0',
      { warmUp: { periodMs: 60_000, alignMs: 0 } },
      /^backtest: warmUp\.alignMs must be a positive number of ms, got 0$/,
    ],
    ['batchSize 0', { batchSize: 0 }, /^backtest: batchSize must be a whole number of at least 1, got 0$/],
    [
      'batchSize below 0',
      { batchSize: -5 },
      /^backtest: batchSize must be a whole number of at least 1, got -5$/,
    ],
    [
      'batchSize NaN',
      { batchSize: Number.NaN },
      /^backtest: batchSize must be a whole number of at least 1, got NaN$/,
    ],
    [
      'equitySampleMs 0',
      { equitySampleMs: 0 },
      /^backtest: equitySampleMs must be a positive number of ms, got 0$/,
    ],
    [
      'equitySampleMs NaN',
      { equitySampleMs: Number.NaN },
      /^backtest: equitySampleMs must be a positive number of ms, got NaN$/,
    ],
    ['equityBuckets 1', { equityBuckets: 1 }, /^backtest: equityBuckets must be at least 2, got 1$/],
  ])(
    'refuses %s with a RangeError naming the option and the value, the gate left unspent',
    async (_, overrides, message) => {
      const options = await optionsWith(overrides);
      const refused = runBacktest(options);
      await expect(refused).rejects.toBeInstanceOf(RangeError);
      await expect(refused).rejects.toThrow(message);
      // The same options, mended, run on the same gate: the refusal did not spend it.
      const mended = await runBacktest({
        ...options,
        window: undefined,
        warmUp: undefined,
        batchSize: undefined,
        equitySampleMs: undefined,
        equityBuckets: undefined,
      });
      mended.dispose?.();
    },
  );

  it('throws WarmUpTookEverythingError when the warm-up takes every event, saying how many', async () => {
    const run = runBacktest(await optionsWith({ warmUp: { periodMs: 86_400_000 } }));
    await expect(run).rejects.toBeInstanceOf(WarmUpTookEverythingError);
    await expect(run).rejects.toThrow(/the warm-up of 1 d .* takes all 20 events of the recordings/);
  });
});
