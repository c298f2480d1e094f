import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { importOhlcvCsv } from '../../../backtest/csv/index.ts';
import { type BacktestRunOptions, runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { barsRecordingIn, decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const AAPL = 'US_EQUITY_AAPL';
const aTempDir = tempDirsRemovedAfterAll('keel-hours-');

/** Buys 10 AAPL at market on the first bar of `interval`, then holds. */
function buyAndHold(interval: '1m' | '1d') {
  return defineStrategy({
    name: 'buy-and-hold',
    params: z.object({}),
    state: () => ({ bought: false }),
    onStart: (ctx) => ctx.watchBars(AAPL, interval),
    onBar: (ctx) => {
      if (ctx.state.bought) return undefined;
      ctx.state.bought = true;
      return ctx.order.market({ sym: AAPL, side: 'BUY', qty: '10' });
    },
  });
}

function options(recording: string, interval: '1m' | '1d'): BacktestRunOptions {
  return {
    recordings: [recording],
    decode: decodeMarketRecord,
    instruments: [anInstrument(AAPL)],
    strategies: [{ id: 's1', strategy: buyAndHold(interval), params: {} }],
    gate: new RiskGate(),
    startingCash: D(10_000),
    commission: { rate: D('0.001') },
    closeAtEnd: true,
  };
}

async function dailyBarsIn(dir: string): Promise<string> {
  const days = [1, 2, 3, 4, 5].map((d) => `2024-01-0${d},190,199,188,${190 + d},1000`);
  await writeFile(join(dir, 'daily.csv'), `date,open,high,low,close,volume\n${days.join('\n')}\n`);
  await importOhlcvCsv({ input: join(dir, 'daily.csv'), output: join(dir, 'daily.jsonl'), sym: AAPL });
  return join(dir, 'daily.jsonl');
}

describe('end-of-run close of a US equity', () => {
  it('closes the position after daily bars ending on a Friday, at the last close', async () => {
    const result = await runBacktest(options(await dailyBarsIn(aTempDir()), '1d'));
    expect(result.openTrades).toEqual([]);
    expect([...result.trades].map((t) => t.exitPrice.toFixed())).toEqual(['195']);
    result.dispose?.();
  });

  it('closes the position after 1m bars ending at the 16:00 close', async () => {
    const rows = Array.from({ length: 6 }, (_, i) => [190, 199, 189, 190 + i]);
    const recording = await barsRecordingIn(aTempDir(), rows, Date.UTC(2024, 0, 2, 20, 54), AAPL);
    const result = await runBacktest(options(recording, '1m'));
    expect(result.openTrades).toEqual([]);
    expect([...result.trades].map((t) => t.exitPrice.toFixed())).toEqual(['195']);
    result.dispose?.();
  });
});
