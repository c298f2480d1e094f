import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordingWriter } from '../../../backtest/recording/index.ts';
import { type BacktestRunOptions, runBacktest } from '../../../backtest/runner/index.ts';
import { recordedSampleStep } from '../../../backtest/runner/recorded-sample-step.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { smaCross } from '../../../strategies/sma-cross.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { quoteRecordAt, TEST_HEADER } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const HOUR = 3_600_000;
const aTempDir = tempDirsRemovedAfterAll('keel-recorded-step-');

/** A quote every 10 minutes over 3 hours, in a recording whose header states `equitySampleMs` or not. */
async function threeHours(dir: string, equitySampleMs?: number): Promise<string> {
  const path = join(dir, `session-${equitySampleMs ?? 'none'}.jsonl`);
  const writer = await RecordingWriter.open(path, {
    ...TEST_HEADER,
    ...(equitySampleMs === undefined ? {} : { equitySampleMs }),
  });
  for (let t = 0; t <= 3 * HOUR; t += 600_000) {
    const quote = quoteRecordAt(t, '95000.1', '95000.3');
    writer.append(quote.recvTs, quote.source, quote.msg);
  }
  writer.close();
  return path;
}

function options(recordings: string[]): BacktestRunOptions {
  return {
    recordings,
    decode: decodeMarketRecord,
    instruments: [anInstrument(SYM)],
    strategies: [{ id: 'sma', strategy: smaCross, params: { sym: SYM, fast: 3, slow: 8, fraction: 0.5 } }],
    gate: new RiskGate(),
    startingCash: D(100_000),
    fillModel: 'touch',
    closeAtEnd: false,
  };
}

describe('the equity sampling step a session states in its recording', () => {
  it('is the step of a backtest of that recording however long it is, and the note says where it came from', async () => {
    const dir = aTempDir();
    const stated = await runBacktest(options([await threeHours(dir, 1_000)]));
    const unstated = await runBacktest(options([await threeHours(dir)]));
    try {
      // 3 h = 10 800 s: a recording stating no step is sampled every 2 s (its span's default).
      expect(unstated.meta.runConfig.equitySampleMs).toBe(2_000);
      // The session sampled every second: so does the backtest of its recording.
      expect(stated.meta.runConfig.equitySampleMs).toBe(1_000);
      const note = stated.meta.assumptions.find((a) => a.startsWith('Equity is sampled')) ?? '';
      expect(note).toContain(
        'at most every 1 s of event time (the step the session that made the recording sampled at',
      );
    } finally {
      stated.dispose?.();
      unstated.dispose?.();
    }
  }, 60_000);

  it('gives way to the step the run is told, and to the span rule when the sessions disagree', async () => {
    const dir = aTempDir();
    const told = await runBacktest({ ...options([await threeHours(dir, 1_000)]), equitySampleMs: 5_000 });
    try {
      expect(told.meta.runConfig.equitySampleMs).toBe(5_000);
    } finally {
      told.dispose?.();
    }
    expect(recordedSampleStep([{ equitySampleMs: 1_000 }, {}, { equitySampleMs: 1_000 }])).toBe(1_000);
    expect(recordedSampleStep([{ equitySampleMs: 1_000 }, { equitySampleMs: 2_000 }])).toBeUndefined();
    expect(recordedSampleStep([{}, {}])).toBeUndefined();
  }, 60_000);
});
