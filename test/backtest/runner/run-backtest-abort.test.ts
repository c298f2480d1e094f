import { readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  type BacktestRunOptions,
  type ProgressReporter,
  type RiskGateReusedError,
  runBacktest,
} from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeMarketRecord, flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

// A run cancelled through `signal` stops at its next batch, releases what it opened and rejects
// with the signal's reason, as Node's own APIs do.
const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-test-abort-');

/** This process's spill directories in the temporary directory. */
function spillDirs(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith(`keel-backtest-${process.pid}-`));
}

/** This process's open descriptors on files under `dir`. */
function openFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(dir)) out.push(target);
    } catch {
      // Closed meanwhile.
    }
  }
  return out;
}

/** A strategy that says when it starts and stops, and counts the bars it sees. */
function watcher(calls: string[]) {
  let bars = 0;
  return {
    bars: () => bars,
    strategy: defineStrategy({
      name: 'watcher',
      params: z.object({}),
      onStart: (ctx) => {
        calls.push('start');
        ctx.watchBars(BTC, '1m');
      },
      onBar: () => {
        bars++;
      },
      onStop: () => {
        calls.push('stop');
      },
    }),
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
    strategies: [{ id: 's', strategy: watcher([]).strategy }],
    gate: new RiskGate(),
    startingCash: D(10_000),
    ...overrides,
  };
}

/** A reporter that aborts `controller` once the run replayed `after` events. */
function abortingAfter(after: number, controller: AbortController, calls: string[]): ProgressReporter {
  return {
    start: () => calls.push('progress start'),
    update: (events) => {
      if (events >= after) controller.abort(new Error('enough'));
    },
    stop: () => calls.push('progress stop'),
  };
}

describe('runBacktest with an aborted signal', () => {
  it('rejects with an AbortError before opening anything: no recording read, no spill directory, the gate free', async () => {
    const controller = new AbortController();
    controller.abort();
    const gate = new RiskGate();
    const before = spillDirs();
    const calls: string[] = [];
    const run = runBacktest({
      ...(await options(5)),
      // Opening it would fail with ENOENT.
      recordings: [join(aTempDir(), 'missing.jsonl')],
      gate,
      signal: controller.signal,
      progress: { start: () => calls.push('start'), update: () => undefined, stop: () => calls.push('stop') },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(spillDirs()).toEqual(before);
    expect(calls).toEqual([]);
    // The gate was never claimed: a run with it is served.
    (await runBacktest({ ...(await options(5)), gate })).dispose?.();
  });

  it("rejects with the signal's own reason", async () => {
    const reason = new Error('user cancelled');
    await expect(runBacktest({ ...(await options(5)), signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
  });
});

describe.runIf(process.platform === 'linux')('runBacktest aborted mid-replay', () => {
  it('stops at the next batch, stops its strategies and progress, closes and removes what it opened, and rejects', async () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const strategy = watcher(calls);
    const gate = new RiskGate();
    const run = await options(5000, {
      strategies: [{ id: 's', strategy: strategy.strategy }],
      gate,
      batchSize: 100,
      signal: controller.signal,
      progress: abortingAfter(300, controller, calls),
    });
    const before = spillDirs();
    await expect(runBacktest(run)).rejects.toThrow('enough');
    // Aborted after the batch that reached 300 events: the next one was never replayed.
    expect(strategy.bars()).toBeLessThanOrEqual(300);
    expect(calls).toEqual(['start', 'progress start', 'stop', 'progress stop']);
    expect(spillDirs()).toEqual(before);
    const recordingDir = dirname(run.recordings[0] as string);
    await vi.waitFor(() => expect(openFilesUnder(recordingDir), 'descriptors left open').toEqual([]), {
      timeout: 1000,
    });
    // The run started its strategies: its gate is spent, no longer serving.
    await expect(runBacktest({ ...run, signal: undefined, progress: undefined })).rejects.toMatchObject({
      use: 'served',
    } satisfies Partial<RiskGateReusedError>);
  });

  it('removes the event cache it was building: no partial file is left beside the recording', async () => {
    const controller = new AbortController();
    const run = await options(5000, {
      batchSize: 100,
      eventCache: { decoderId: 'test-abort' },
      signal: controller.signal,
      progress: abortingAfter(300, controller, []),
    });
    const recordingDir = dirname(run.recordings[0] as string);
    await expect(runBacktest(run)).rejects.toThrow('enough');
    expect(readdirSync(recordingDir).filter((name) => name.includes('.events.'))).toEqual([]);
  });

  it('stops during a warm-up too, its strategies stopped', async () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const strategy = watcher(calls);
    let read = 0;
    const run = await options(5000, {
      strategies: [{ id: 's', strategy: strategy.strategy }],
      batchSize: 100,
      warmUp: { periodMs: 4000 * 60_000 },
      // The warm-up is fed before any progress: abort as its events are decoded.
      decode: (record) => {
        if (++read === 1000) controller.abort();
        return decodeMarketRecord(record);
      },
      signal: controller.signal,
    });
    await expect(runBacktest(run)).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls).toEqual(['start', 'stop']);
    expect(strategy.bars()).toBeLessThan(1000);
  });
});
