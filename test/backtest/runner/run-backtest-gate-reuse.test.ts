import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resultToJson } from '../../../backtest/report/index.ts';
import { type BacktestRunOptions, RiskGateReusedError, runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy, type IntentGate } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { barsRecordingIn, decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-test-gate-reuse-');

/** Buys 1 on even bars, sells 1 on odd bars. */
const flipper = defineStrategy({
  name: 'flipper',
  params: z.object({}),
  state: () => ({ n: 0 }),
  onStart: (ctx) => ctx.watchBars(BTC, '1m'),
  onBar: (ctx) => ctx.order.market({ sym: BTC, side: ctx.state.n++ % 2 === 0 ? 'BUY' : 'SELL', qty: '1' }),
});

// 20 bars falling by 1 each minute: each round trip loses, so a kill switch on the day's loss trips.
const FALLING = Array.from({ length: 20 }, (_, i) => [100 - i, 100.5 - i, 98.5 - i, 99 - i]);
const KILL_SWITCH = { killSwitch: { dailyLossLimit: '3' } } as const;
const RATE_LIMIT = { limits: { submitRate: { limit: 1, intervalMs: 120_000 } } } as const;

async function optionsWith(gate: IntentGate): Promise<BacktestRunOptions> {
  return {
    recordings: [await barsRecordingIn(aTempDir(), FALLING, T0, BTC)],
    decode: decodeMarketRecord,
    instruments: [anInstrument(BTC)],
    strategies: [{ id: 's', strategy: flipper }],
    gate,
    startingCash: D(10_000),
  };
}

/** A RiskGate that counts the kill-switch listeners added to it and not removed yet. */
function countingListeners(gate: RiskGate): { readonly gate: IntentGate; readonly live: () => number } {
  let live = 0;
  return {
    gate: {
      evaluate: (intent, view) => gate.evaluate(intent, view),
      observeEquity: (now, equity) => gate.observeEquity(now, equity),
      watchesEquity: () => gate.watchesEquity(),
      onKillSwitchTrip: (listener) => {
        live++;
        const off = gate.onKillSwitchTrip(listener);
        return () => {
          live--;
          off();
        };
      },
    },
    live: () => live,
  };
}

describe('runBacktest and the risk gate it is given', () => {
  it.each([
    ['a rate limit', RATE_LIMIT],
    ['a kill switch', KILL_SWITCH],
  ])(
    'refuses a gate that already served a run (%s: its state would carry over), naming the fix',
    async (_, config) => {
      const options = await optionsWith(new RiskGate(config));
      (await runBacktest(options)).dispose?.();
      const second = runBacktest(options);
      await expect(second).rejects.toBeInstanceOf(RiskGateReusedError);
      await expect(second).rejects.toThrow(/already served a run.*a gate of its own.*new RiskGate/);
    },
  );

  it('refuses a gate another run is serving at once (Promise.all of runs sharing one gate)', async () => {
    const options = await optionsWith(new RiskGate(KILL_SWITCH));
    const [first, second] = await Promise.allSettled([runBacktest(options), runBacktest(options)]);
    expect(first.status).toBe('fulfilled');
    expect(second.status === 'rejected' && second.reason).toBeInstanceOf(RiskGateReusedError);
    expect(second.status === 'rejected' && (second.reason as Error).message).toMatch(
      /is serving another run/,
    );
    if (first.status === 'fulfilled') first.value.dispose?.();
  });

  it('gives the same result run after run with a gate of its own each time (the documented fix)', async () => {
    for (const config of [RATE_LIMIT, KILL_SWITCH]) {
      const base = await optionsWith(new RiskGate(config));
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(await runBacktest({ ...base, gate: new RiskGate(config) }));
      expect(runs[0]?.fills.length).toBeGreaterThan(0);
      expect(new Set(runs.map((run) => resultToJson(run))).size).toBe(1);
      for (const run of runs) run.dispose?.();
    }
  });

  it('removes the kill-switch listeners it added once the run ends, whether it finished or failed', async () => {
    const finished = countingListeners(new RiskGate(KILL_SWITCH));
    const result = await runBacktest(await optionsWith(finished.gate));
    expect(result.meta.warnings?.some((w) => w.startsWith('the kill switch tripped'))).toBe(true);
    result.dispose?.();
    expect(finished.live(), 'listeners left on the gate of a finished run').toBe(0);

    const failed = countingListeners(new RiskGate(KILL_SWITCH));
    const broken = await optionsWith(failed.gate);
    let lines = 0;
    await expect(
      runBacktest({
        ...broken,
        decode: (record) => {
          if (++lines === 10) throw new Error('my decoder broke');
          return decodeMarketRecord(record);
        },
        batchSize: 2,
      }),
    ).rejects.toThrow('my decoder broke');
    expect(failed.live(), 'listeners left on the gate of a failed run').toBe(0);
  });
});
