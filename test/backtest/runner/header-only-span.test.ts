import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BacktestRunOptions, runBacktest } from '../../../backtest/runner/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { smaCross } from '../../../strategies/sma-cross.ts';
import { barsRecordingIn, decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const aTempDir = tempDirsRemovedAfterAll('keel-header-only-');

function options(recordings: string[]): BacktestRunOptions {
  return {
    recordings,
    decode: decodeMarketRecord,
    instruments: [anInstrument(SYM)],
    strategies: [{ id: 'sma', strategy: smaCross, params: { sym: SYM, fast: 3, slow: 8, fraction: 0.5 } }],
    gate: new RiskGate(),
    startingCash: D(100_000),
    fillModel: 'bar',
    closeAtEnd: true,
  };
}

/** 300 1m bars (5 hours) wandering around 100. */
async function fiveHoursOfBars(dir: string): Promise<string> {
  const rows = Array.from({ length: 300 }, (_, i) => {
    const open = 100 + Math.round(10 * Math.sin(i / 7)) / 2;
    const close = 100 + Math.round(10 * Math.sin((i + 1) / 7)) / 2;
    return [open, Math.max(open, close) + 0.5, Math.min(open, close) - 0.5, close];
  });
  return barsRecordingIn(dir, rows, Date.UTC(2024, 0, 1), SYM);
}

describe('a header-only recording among the recordings of a run', () => {
  it('changes neither the sampling step nor the metrics', async () => {
    const dir = aTempDir();
    const bars = await fiveHoursOfBars(dir);
    const empty = join(dir, 'empty.jsonl');
    await writeRecording(empty, []);
    const alone = await runBacktest(options([bars]));
    const withEmpty = await runBacktest(options([empty, bars]));
    try {
      // 5 h = 18 000 s: the finest step giving at most 10 000 samples is 2 s.
      expect(alone.meta.runConfig.equitySampleMs).toBe(2_000);
      expect(withEmpty.meta.runConfig.equitySampleMs).toBe(2_000);
      expect(withEmpty.metrics).toEqual(alone.metrics);
      expect(withEmpty.meta.warnings ?? []).toEqual(alone.meta.warnings ?? []);
    } finally {
      alone.dispose?.();
      withEmpty.dispose?.();
    }
  }, 60_000);

  // A run with no data has no span to differ from: no warning that its sampling grid "may differ".
  it('alone, samples at the default step, the note saying there is no record, with no warning about it', async () => {
    const empty = join(aTempDir(), 'empty.jsonl');
    await writeRecording(empty, []);
    const result = await runBacktest(options([empty]));
    try {
      expect(result.meta.runConfig.equitySampleMs).toBe(60_000);
      const note = result.meta.assumptions.find((a) => a.startsWith('Equity is sampled')) ?? '';
      expect(note).toContain('the recordings hold no record');
      expect(note).not.toContain('this span');
      expect(note).not.toContain('unknown');
      // The one warning left is the strategy's sym without data.
      expect((result.meta.warnings ?? []).filter((w) => /span|sampl|Sharpe/.test(w))).toEqual([]);
    } finally {
      result.dispose?.();
    }
  }, 60_000);
});
