import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type BacktestRunOptions, eventCachePaths, runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeMarketRecord, flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-test-damaged-cache-');
const idle = defineStrategy({
  name: 'idle',
  params: z.object({}),
  onStart: (ctx) => ctx.watchBars(BTC, '1m'),
});
afterEach(() => vi.restoreAllMocks());

/** A backtest of the idle strategy over the recording, through its event cache. */
function cachedRun(recording: string): BacktestRunOptions {
  return {
    recordings: [recording],
    decode: decodeMarketRecord,
    instruments: [anInstrument(BTC)],
    strategies: [{ id: 's', strategy: idle }],
    gate: new RiskGate(),
    startingCash: D(10_000),
    eventCache: { decoderId: 'test-v1' },
    onRecordingDamage: () => undefined,
  };
}

describe('a backtest whose event cache is damaged', () => {
  it("says so in the result's warnings, not on stderr, and gives the result a clean cache gives", async () => {
    const recording = await flatBarsRecordingIn(aTempDir(), 50, T0, BTC);
    const clean = await runBacktest(cachedRun(recording));
    clean.dispose?.();
    const { data } = eventCachePaths(recording);
    const bytes = readFileSync(data);
    for (let i = 40; i < bytes.length; i += 7) bytes[i] = (bytes[i] ?? 0) ^ 0xff;
    writeFileSync(data, bytes);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const damaged = await runBacktest(cachedRun(recording));
    const printed = stderr.mock.calls.map((call) => String(call[0]));
    stderr.mockRestore();
    damaged.dispose?.();
    expect(printed, 'written to stderr by the library').toEqual([]);
    expect(damaged.meta.warnings).toEqual([
      ...(clean.meta.warnings ?? []),
      expect.stringMatching(
        new RegExp(
          `^event cache of ${recording}: .* in the chunk at byte \\d+: dropped it and rebuilding it from the recording$`,
        ),
      ),
    ]);
    expect(damaged.fills.length).toBe(clean.fills.length);
    expect(damaged.metrics).toEqual(clean.metrics);
  });

  for (const [damage, cut] of [
    ['cut short', (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length / 2))],
    ['emptied', () => Buffer.alloc(0)],
  ] as const)
    it(`says so in the result's warnings when its data file was ${damage}, as for a CRC-32 mismatch`, async () => {
      const recording = await flatBarsRecordingIn(aTempDir(), 50, T0, BTC);
      const clean = await runBacktest(cachedRun(recording));
      clean.dispose?.();
      const { data } = eventCachePaths(recording);
      const bytes = readFileSync(data);
      writeFileSync(data, cut(bytes));
      const damaged = await runBacktest(cachedRun(recording));
      damaged.dispose?.();
      expect(damaged.meta.warnings).toEqual([
        ...(clean.meta.warnings ?? []),
        `event cache of ${recording}: the data file is ${cut(bytes).length} bytes, not the ${bytes.length} written: dropped it and rebuilding it from the recording`,
      ]);
      expect(damaged.metrics).toEqual(clean.metrics);
    });
});
