import { readdirSync, readlinkSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import {
  type BacktestRunOptions,
  type ProgressReporter,
  runBacktest,
} from '../../../backtest/runner/index.ts';
import { defineStrategy, Kernel } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeMarketRecord, flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-test-failed-run-');

/** This process's open descriptors on a run's spill files or on the test's recordings. */
function openFiles(): string[] {
  const out: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.includes('/keel-backtest-') || target.includes('/keel-test-failed-run-')) out.push(target);
    } catch {
      // Closed meanwhile.
    }
  }
  return out;
}

const sized = defineStrategy({
  name: 'sized',
  params: z.object({ qty: z.string() }),
  onStart: (ctx) => ctx.watchBars(BTC, '1m'),
});
const idle = defineStrategy({
  name: 'idle',
  params: z.object({}),
  onStart: (ctx) => ctx.watchBars(BTC, '1m'),
});

/** The caller's own decoder, failing on the given line (a schema change in their data, say). */
function decoderFailingAt(line: number): (record: RecordedMessage) => ReturnType<typeof decodeMarketRecord> {
  let lines = 0;
  return (record) => {
    if (++lines === line) throw new Error('my decoder broke');
    return decodeMarketRecord(record);
  };
}

async function options(
  bars: number,
  overrides: Partial<BacktestRunOptions> = {},
): Promise<BacktestRunOptions> {
  return {
    recordings: [await flatBarsRecordingIn(aTempDir(), bars, T0, BTC)],
    decode: decodeMarketRecord,
    instruments: [anInstrument(BTC)],
    strategies: [{ id: 's', strategy: sized, params: { qty: '1' } }],
    gate: new RiskGate(),
    startingCash: D(10_000),
    ...overrides,
  };
}

describe.runIf(process.platform === 'linux')('runBacktest that fails', () => {
  it('closes its spill files: a grid of failing runs leaves no descriptor open', async () => {
    const base = await options(5);
    const before = openFiles();
    // A parameter grid where some points fail validation, one whose warm-up is too long, one whose decoder throws.
    for (let i = 0; i < 5; i++) {
      const slot = { id: 's', strategy: sized, params: { qty: i } };
      await expect(runBacktest({ ...base, gate: new RiskGate(), strategies: [slot] })).rejects.toThrow(
        /params\.qty/,
      );
    }
    await expect(
      runBacktest({ ...base, gate: new RiskGate(), warmUp: { periodMs: 86_400_000 } }),
    ).rejects.toThrow(/warm-up/);
    await expect(
      runBacktest({ ...(await options(3000)), decode: decoderFailingAt(2000), batchSize: 100 }),
    ).rejects.toThrow('my decoder broke');
    // A read stream's descriptor closes a moment after the stream is destroyed.
    await vi.waitFor(() => expect(openFiles(), 'descriptors left open').toEqual(before), { timeout: 1000 });
  });

  it('closes the recording it was reading when it fails before its end', async () => {
    const run = await options(5000, { strategies: [{ id: 's', strategy: sized, params: { qty: 1 } }] });
    await expect(runBacktest(run)).rejects.toThrow(/params\.qty/);
    await vi.waitFor(() => expect(openFiles().filter((path) => path === run.recordings[0])).toEqual([]), {
      timeout: 1000,
    });
  });
});

describe('runBacktest failing mid-run', () => {
  it('stops the progress reporter it started (a TTY bar keeps a timer: the process would never exit)', async () => {
    const calls: string[] = [];
    const progress: ProgressReporter = {
      start: () => calls.push('start'),
      update: () => undefined,
      stop: () => calls.push('stop'),
    };
    const run = await options(3000, {
      strategies: [{ id: 's', strategy: idle }],
      decode: decoderFailingAt(2000),
      batchSize: 100,
      progress,
    });
    await expect(runBacktest(run)).rejects.toThrow('my decoder broke');
    expect(calls).toEqual(['start', 'stop']);
  });

  it('stops a reporter once on a run that finishes, and never starts one on a run that fails before replaying', async () => {
    const calls: string[] = [];
    const progress: ProgressReporter = {
      start: () => calls.push('start'),
      update: () => undefined,
      stop: () => calls.push('stop'),
    };
    const run = await options(50, { strategies: [{ id: 's', strategy: idle }], progress });
    (await runBacktest(run)).dispose?.();
    expect(calls).toEqual(['start', 'stop']);
    calls.length = 0;
    await expect(
      runBacktest({
        ...run,
        gate: new RiskGate(),
        strategies: [{ id: 's', strategy: sized, params: { qty: 1 } }],
      }),
    ).rejects.toThrow(/params\.qty/);
    expect(calls).toEqual([]);
  });
});

describe('runBacktest failing after its strategies started', () => {
  /** A strategy that says when it starts and stops. */
  function told(calls: string[]) {
    return defineStrategy({
      name: 'told',
      params: z.object({}),
      onStart: (ctx) => {
        calls.push('start');
        ctx.watchBars(BTC, '1m');
      },
      onStop: () => {
        calls.push('stop');
      },
    });
  }

  it('stops its kernel: the strategies get their onStop, as a session that fails does (a reader error mid-run)', async () => {
    const calls: string[] = [];
    const stop = vi.spyOn(Kernel.prototype, 'stop');
    try {
      const run = await options(3000, {
        strategies: [{ id: 's', strategy: told(calls) }],
        decode: decoderFailingAt(2000),
        batchSize: 100,
      });
      await expect(runBacktest(run)).rejects.toThrow('my decoder broke');
      expect(stop, 'the kernel was never stopped').toHaveBeenCalledOnce();
      expect(calls).toEqual(['start', 'stop']);
    } finally {
      stop.mockRestore();
    }
  });

  it('stops its kernel when its warm-up took every event', async () => {
    const calls: string[] = [];
    const run = await options(5, {
      strategies: [{ id: 's', strategy: told(calls) }],
      warmUp: { periodMs: 86_400_000 },
    });
    await expect(runBacktest(run)).rejects.toThrow(/warm-up/);
    expect(calls).toEqual(['start', 'stop']);
  });

  it('stops its kernel once on a run that finishes', async () => {
    const calls: string[] = [];
    const run = await options(50, { strategies: [{ id: 's', strategy: told(calls) }] });
    (await runBacktest(run)).dispose?.();
    expect(calls).toEqual(['start', 'stop']);
  });
});
