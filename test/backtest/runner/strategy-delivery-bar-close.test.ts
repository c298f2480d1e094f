import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aTrade } from '../../kit/kernel-events.ts';
import { decodeQuotesAndTrades } from '../../kit/quote-trade-decoder.ts';
import { TEST_HEADER, tempDir, writeRecording } from '../../kit/recording-files.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';

/** Trades as (venue stamp, receive time, price), ms after a start: every one before 60 000 is stamped inside minute 0. */
const TRADES: readonly [number, number, number][] = [
  [1_000, 1_000, 100],
  [59_980, 60_010, 99], // stamped in minute 0, received 30 ms later (feed delay)
  [59_990, 60_020, 98],
  [61_000, 61_000, 101],
  [121_000, 121_000, 102],
];

const watcher = (bars: string[], t0: number) =>
  defineStrategy({
    name: 'bars',
    params: z.object({}).strict(),
    onStart: (ctx) => ctx.watchBars(SYM, '1m'),
    onBar: (_ctx, bar) => {
      bars.push(`open +${(bar.openTime - t0) / 1000}s o${bar.open} h${bar.high} l${bar.low} c${bar.close}`);
    },
  });

describe('a 1m bar built from trades, with no event stamped past its end before its last trades', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());

  it('live (events only): minute 0 holds every trade the venue stamped in it', () => {
    const bars: string[] = [];
    const { kernel } = aKernelRig([{ id: 'w', strategy: watcher(bars, 0) }]);
    for (const [ts, recvTs, price] of TRADES) kernel.push({ ...aTrade(ts, price), recvTs });
    expect(bars[0]).toBe('open +0s o100 h100 l98 c98');
  });

  it('backtest: the same, with no late-trade warning: bars close on venue stamps, not on the receive clock', async () => {
    const t0 = TEST_HEADER.startTime;
    const path = join(temp.dir, 'delayed-trades.jsonl');
    const records: RecordedMessage[] = TRADES.map(([ts, recvTs, price]) => ({
      recvTs: t0 + recvTs,
      source: 'market-data',
      msg: {
        arg: { channel: 'TRADE', sym: SYM },
        data: { tradeId: `t${ts}`, price: String(price), qty: '1', side: 'BUY', ts: t0 + ts },
      },
    }));
    await writeRecording(path, records);
    const bars: string[] = [];
    const result = await runBacktest({
      recordings: [path],
      decode: decodeQuotesAndTrades,
      instruments: [anInstrument(SYM)],
      strategies: [{ id: 'w', strategy: watcher(bars, t0), params: {} }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      closeAtEnd: false,
    });
    result.dispose?.();
    // The receive clock passing T0+60 s used to close minute 0, so both delayed trades were left
    // out as late and warned about.
    expect({
      bar: bars[0],
      late: (result.meta.warnings ?? []).filter((w) => w.includes('left out')),
    }).toEqual({
      bar: 'open +0s o100 h100 l98 c98',
      late: [],
    });
  });
});
