import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type RecordedMessage, RecordingWriter } from '../../../backtest/recording/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { type BarEvent, D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { decodeQuotesAndTrades } from '../../kit/quote-trade-decoder.ts';
import { TEST_HEADER, tempDir } from '../../kit/recording-files.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = TEST_HEADER.startTime; // a whole minute
const MIN = 60_000;
const temp = tempDir();
afterAll(() => temp.remove());

const trade = (ts: number, price: string): RecordedMessage => ({
  recvTs: ts,
  source: 'market-data',
  msg: { arg: { channel: 'TRADE', sym: SYM }, data: { tradeId: `t${ts}`, price, qty: '1', side: 'BUY', ts } },
});

/** The 1m bars a strategy watching from onStart gets of a recording whose recorder began at `startTime`. */
async function firstBars(startTime: number, window?: { from: number }): Promise<string[]> {
  const path = join(temp.dir, `rec-${startTime}-${window?.from ?? 'all'}.jsonl`);
  const writer = await RecordingWriter.open(path, { ...TEST_HEADER, startTime });
  // Two trades a minute, the first a second into the minute (never on the open's millisecond).
  for (let m = 0; m < 5; m++)
    for (const at of [1_000, 30_000])
      if (T0 + m * MIN + at >= startTime) {
        const r = trade(T0 + m * MIN + at, `${100 + m}`);
        writer.append(r.recvTs, r.source, r.msg);
      }
  const last = trade(T0 + 5 * MIN + 1_000, '200');
  writer.append(last.recvTs, last.source, last.msg);
  writer.close();
  const seen: BarEvent[] = [];
  const watcher = defineStrategy({
    name: 'bars',
    params: z.object({}).strict(),
    onStart: (ctx) => ctx.watchBars(SYM, '1m'),
    onBar: (_ctx, bar) => {
      seen.push(bar);
    },
  });
  await runBacktest({
    recordings: [path],
    decode: decodeQuotesAndTrades,
    instruments: [anInstrument(SYM)],
    strategies: [{ id: 'w', strategy: watcher, params: {} }],
    gate: new RiskGate(),
    startingCash: D(10_000),
    closeAtEnd: false,
    ...(window ? { window } : {}),
  });
  return seen.map((b) => `1m@${(b.openTime - T0) / MIN}${b.partial ? ' partial' : ''}`);
}

describe('the first bar a backtest builds from trades', () => {
  it('is whole when the recording began on its open, though its first trade came a second later', async () => {
    expect((await firstBars(T0)).slice(0, 2)).toEqual(['1m@0', '1m@1']);
  });

  it('is whole when the window starts on its open', async () => {
    expect((await firstBars(T0, { from: T0 + 2 * MIN }))[0]).toBe('1m@2');
  });

  it('is partial when the recording began after its open (the recorder missed the trades before)', async () => {
    expect((await firstBars(T0 + 20_000)).slice(0, 2)).toEqual(['1m@0 partial', '1m@1']);
  });
});
