import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BacktestRunOptions, runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeMarketRecord, flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

// equitySampleMs / equityBuckets out of range were found only inside the run, by the equity sampler, after the
// gate was claimed: retrying with the option corrected then failed with RiskGateReusedError.
const BTC = 'BINANCE_PERP_BTC_USDT';
const aTempDir = tempDirsRemovedAfterAll('keel-test-late-checks-');
const idle = defineStrategy({
  name: 'idle',
  params: z.object({}),
  onStart: (ctx) => ctx.watchBars(BTC, '1m'),
});

describe('an equity option out of range', () => {
  it.each<[string, Partial<BacktestRunOptions>, RegExp]>([
    ['equityBuckets 1', { equityBuckets: 1 }, /^backtest: equityBuckets must be at least 2, got 1$/],
    [
      'equitySampleMs -1',
      { equitySampleMs: -1 },
      /^backtest: equitySampleMs must be a positive number of ms, got -1$/,
    ],
  ])(
    '(%s) is refused by the option check before the gate is taken, so the corrected run may use it',
    async (_, bad, message) => {
      const base: BacktestRunOptions = {
        recordings: [await flatBarsRecordingIn(aTempDir(), 5, Date.UTC(2024, 0, 1), BTC)],
        decode: decodeMarketRecord,
        instruments: [anInstrument(BTC)],
        strategies: [{ id: 's', strategy: idle }],
        gate: new RiskGate(),
        startingCash: D(10_000),
      };
      const refused = runBacktest({ ...base, ...bad });
      await expect(refused).rejects.toBeInstanceOf(RangeError);
      await expect(refused).rejects.toThrow(message);
      const retried = await runBacktest(base);
      retried.dispose?.();
    },
  );
});
