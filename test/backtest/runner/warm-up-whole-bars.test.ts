import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1, 14, 30);
const MIN = 60_000;
const aTempDir = tempDirsRemovedAfterAll('keel-warm-up-whole-bars-');

/**
 * A recording of trades only, started at `startTime`, its first trade at `firstAt` then one every
 * 10 s for 8 minutes: the strategy's 1m bars are built from them.
 */
async function tradesRecording(startTime: number, firstAt: number): Promise<string> {
  const header = {
    format: 'keel-session',
    formatVersion: 1,
    venue: 'test',
    symbols: [BTC],
    startTime,
    synthetic: false,
    description: 'test trades',
  };
  const lines = [JSON.stringify(header)];
  for (let ts = firstAt, id = 1; ts < T0 + 8 * MIN; ts += 10_000, id++) {
    const data = { tradeId: String(id), price: String(100 + id / 10), qty: '1', side: 'BUY', ts };
    lines.push(
      JSON.stringify({
        recvTs: ts + 1,
        source: 'market-data',
        msg: { arg: { channel: 'TRADE', sym: BTC }, data },
      }),
    );
  }
  const path = join(aTempDir(), 'trades.jsonl');
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

/** Runs a 3-bar warm-up of 1m on the recording: the 1m bars the strategy saw warming up, and the assumption. */
async function warmUp3Bars(recording: string) {
  const warm: string[] = [];
  const strategy = defineStrategy({
    name: 'counter',
    params: z.object({}),
    onStart: (ctx) => ctx.watchBars(BTC, '1m'),
    onBar: (ctx, bar) => {
      if (ctx.warmingUp) warm.push(`${(bar.openTime - T0) / MIN}${bar.partial ? ' partial' : ''}`);
    },
  });
  const result = await runBacktest({
    ...barRunOptions(recording, [anInstrument(BTC)], [{ id: 'c', strategy, params: {} }]),
    warmUp: { periodMs: 3 * MIN, alignMs: MIN },
  });
  result.dispose?.();
  return { warm, assumption: result.meta.assumptions.find((a) => a.startsWith('Warm-up')) };
}

describe('backtest runner: a warm-up counted in bars', () => {
  it('delivers exactly the configured number of whole bars when the recording starts on the minute and its first trade a moment after', async () => {
    const { warm, assumption } = await warmUp3Bars(await tradesRecording(T0, T0 + 1));
    expect(warm).toEqual(['0', '1', '2']);
    expect(assumption).toMatch(
      /^Warm-up of 3 bars of 1 min \(3 min\): the strategies saw the 18 events from 2024-01-01T14:30:00\.002Z to 2024-01-01T14:33:00\.000Z through/,
    );
  });

  it('a recording starting inside a minute: its partial first bar is flagged partial, not counted, and the assumption says so', async () => {
    const { warm, assumption } = await warmUp3Bars(await tradesRecording(T0 + 20_000, T0 + 20_000));
    expect(warm).toEqual(['0 partial', '1', '2', '3']);
    expect(assumption).toContain(
      'from 2024-01-01T14:30:20.001Z to 2024-01-01T14:34:00.000Z (those before 2024-01-01T14:31:00.000Z make a partial first bar, flagged partial and not counted)',
    );
  });
});
