import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EmptyReplayWindowError, runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { barsRecordingIn, decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

// A run that failed before it started its strategies (its recording path was mistyped, or its
// window held no event) leaves its gate free: the corrected retry with the same gate is served.
const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-gate-free-');
const idle = defineStrategy({ name: 'idle', params: z.object({}), state: () => ({}) });
const BARS = Array.from({ length: 5 }, (_, i) => [100 + i, 101 + i, 99 + i, 100 + i]);

describe('a gate whose run failed before its first event', () => {
  it('serves the corrected retry (mistyped recording path)', async () => {
    const dir = aTempDir();
    const good = await barsRecordingIn(dir, BARS, T0, BTC);
    const gate = new RiskGate();
    const base = {
      decode: decodeMarketRecord,
      instruments: [anInstrument(BTC)],
      strategies: [{ id: 's', strategy: idle }],
      gate,
      startingCash: D(10_000),
    };
    await expect(runBacktest({ ...base, recordings: [join(dir, 'typo.jsonl')] })).rejects.toThrow(
      /ENOENT|no such file/,
    );
    const result = await runBacktest({ ...base, recordings: [good] });
    result.dispose?.();
  });

  it('serves the corrected retry (window outside the recording)', async () => {
    const dir = aTempDir();
    const good = await barsRecordingIn(dir, BARS, T0, BTC);
    const gate = new RiskGate();
    const base = {
      recordings: [good],
      decode: decodeMarketRecord,
      instruments: [anInstrument(BTC)],
      strategies: [{ id: 's', strategy: idle }],
      gate,
      startingCash: D(10_000),
    };
    await expect(runBacktest({ ...base, window: { from: T0 + 86_400_000 } })).rejects.toBeInstanceOf(
      EmptyReplayWindowError,
    );
    const result = await runBacktest(base);
    result.dispose?.();
  });
});
