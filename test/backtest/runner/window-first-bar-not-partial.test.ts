import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { type BacktestRunOptions, runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { BarEvent } from '../../../core/model/index.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const aTempDir = tempDirsRemovedAfterAll('keel-review27-window-');

function trade(ts: number, i: number): RecordedMessage {
  return {
    recvTs: ts + 30,
    source: 'market-data',
    msg: {
      arg: { channel: 'TRADE', sym: BTC },
      data: { tradeId: `t${i}`, price: `${100 + (i % 7)}`, qty: '1', side: 'BUY', ts },
    },
  };
}

function collector(bars: BarEvent[]) {
  return defineStrategy({
    name: 'partial-collector',
    params: z.object({}),
    onStart: (ctx) => ctx.watchBars(BTC, '5m'),
    onBar: (_ctx, bar) => {
      bars.push(bar);
    },
  });
}

async function run(path: string, window?: BacktestRunOptions['window']): Promise<string[]> {
  const bars: BarEvent[] = [];
  const result = await runBacktest({
    ...barRunOptions(path, [anInstrument(BTC)], [{ id: 's', strategy: collector(bars), params: {} }]),
    ...(window === undefined ? {} : { window }),
  });
  result.dispose?.();
  return bars.map((b) => `${(b.openTime - T0) / MIN}${b.partial ? ' partial' : ''}`);
}

describe('review27: partial flag on the first bar of a windowed backtest', () => {
  it('a window starting on a 5m boundary holds every trade of its first 5m bar, which is not partial', async () => {
    const dir = aTempDir();
    const path = join(dir, 'trades.jsonl');
    // A trade every 10 s from T0 + 5 s for 16 minutes (none exactly on a boundary).
    const records: RecordedMessage[] = [];
    for (let i = 0; i < 96; i++) records.push(trade(T0 + 5_000 + i * 10_000, i));
    await writeRecording(path, records);
    const full = await run(path);
    // The full run: the bar opening at 5 min is whole.
    expect(full).toContain('5');
    const windowed = await run(path, { from: T0 + 5 * MIN });
    // Same recording, window from 5 min: the bar opening at 5 min holds the same trades.
    expect(windowed[0]).toBe('5');
  });
});
