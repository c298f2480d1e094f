import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDir, writeRecording } from '../../kit/recording-files.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const DAY = 86_400_000;
/** 2025-01-06 00:00 UTC. */
const D0 = 1_736_121_600_000;

/** A closed kline of one interval opening at `openTime`, received at its close. */
function kline(
  interval: '1m' | '5m' | '1d',
  openTime: number,
  [open, high, low, close]: readonly number[],
): RecordedMessage {
  const ts = openTime + { '1m': 60_000, '5m': 300_000, '1d': DAY }[interval];
  return {
    recvTs: ts,
    source: 'market-data',
    msg: {
      arg: { channel: 'KLINE', sym: SYM, interval },
      data: {
        openTime,
        open: `${open}`,
        high: `${high}`,
        low: `${low}`,
        close: `${close}`,
        volume: '10',
        closed: true,
        ts,
      },
    },
  };
}

/** A closed daily kline of day `i` after D0, received at its close. */
function dailyKline(i: number, ohlc: readonly number[]): RecordedMessage {
  return kline('1d', D0 + i * DAY, ohlc);
}

/** What the strategy saw when its timer fired: the time and the open time of the latest daily bar. */
const seen: { at: number; lastBarOpen: number | undefined }[] = [];

/** When the strategy was told of each fill, and the fill's own time. */
const told: { at: number; filledAt: number }[] = [];

/** After the first daily bar, sets a timer for 20:00 of the next day and buys 1 at market then. */
const eveningBuyer = defineStrategy<Record<string, never>, { armed: boolean }>({
  name: 'evening-buyer',
  params: z.object({}).strict(),
  state: () => ({ armed: false }),
  onStart: (ctx) => ctx.watchBars(SYM, '1d'),
  onBar: (ctx) => {
    if (!ctx.state.armed) {
      ctx.state.armed = true;
      ctx.setTimerAt(D0 + DAY + 20 * 3_600_000, 'evening');
    }
    return undefined;
  },
  onTimer: (ctx) => {
    seen.push({ at: ctx.now(), lastBarOpen: ctx.bar(SYM, '1d')?.openTime });
    return ctx.order.market({ sym: SYM, side: 'BUY', qty: D('1') });
  },
  onFill: (ctx, fill) => {
    told.push({ at: ctx.now(), filledAt: fill.timestamp });
    return undefined;
  },
});

/** Rests a limit BUY 1 at 95 from the close of the second 1m bar on. */
const dipBuyer = defineStrategy<Record<string, never>, { bars: number }>({
  name: 'dip-buyer',
  params: z.object({}).strict(),
  state: () => ({ bars: 0 }),
  onStart: (ctx) => ctx.watchBars(SYM, '1m'),
  onBar: (ctx) => {
    ctx.state.bars += 1;
    if (ctx.state.bars !== 2) return undefined;
    return ctx.order.limit({ sym: SYM, side: 'BUY', qty: D('1'), price: D('95') });
  },
});

describe('backtest runner on 1m and 5m bars of one sym', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());

  it('matches orders against the 1m bars, passes over the 5m bar they cover and says so', async () => {
    const path = join(temp.dir, 'mixed.jsonl');
    const quiet = [100, 101, 99, 100];
    // The 5m bar's low 94 came in minute 1, before the limit existed (placed at the 00:02 close);
    // the 1m bars the limit lived through never went under 99.
    await writeRecording(path, [
      kline('1m', D0, quiet),
      kline('1m', D0 + 60_000, [100, 101, 94, 100]),
      kline('1m', D0 + 120_000, quiet),
      kline('1m', D0 + 180_000, quiet),
      kline('1m', D0 + 240_000, quiet),
      kline('5m', D0, [100, 101, 94, 100]),
    ]);
    const result = await runBacktest({
      ...barRunOptions(path, [anInstrument(SYM)], [{ id: 'd', strategy: dipBuyer, params: {} }]),
      fillModel: 'bar',
      latency: { orderEntry: { fixedMs: 0, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    });
    const fills = [...result.fills].map(
      (f) => `${f.timestamp - D0} ${f.side} ${f.quantity.toFixed()}@${f.price.toFixed()}`,
    );
    const warnings = result.meta.warnings;
    result.dispose?.();
    expect(fills).toEqual([]);
    expect(warnings).toContainEqual(expect.stringContaining(`${SYM} bars of several intervals`));
    expect(warnings).toContainEqual(
      expect.stringContaining('and 1 5m bar that finer bars already covered was passed over'),
    );
  });
});

describe('backtest runner on daily bars: a strategy timer inside a bar', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());

  it('fires at its time seeing only the bars closed by then, and its order fills at the next bar open', async () => {
    const path = join(temp.dir, 'daily.jsonl');
    // Day 1 opens at 102 and closes at 120; day 2 opens at 120.
    await writeRecording(path, [
      dailyKline(0, [100, 101, 99, 100]),
      dailyKline(1, [102, 121, 101, 120]),
      dailyKline(2, [120, 125, 119, 124]),
    ]);
    const result = await runBacktest({
      ...barRunOptions(path, [anInstrument(SYM)], [{ id: 'e', strategy: eveningBuyer, params: {} }]),
      decode: decodeMarketRecord,
      fillModel: 'bar',
      latency: { orderEntry: { fixedMs: 0, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    });
    const fills = [...result.fills].map(
      (f) => `${f.timestamp - D0} ${f.side} ${f.quantity.toFixed()}@${f.price.toFixed()}`,
    );
    result.dispose?.();
    // At 20:00 of day 1 the strategy knows day 0's bar only (day 1 closes at 24:00).
    expect(seen).toEqual([{ at: D0 + DAY + 20 * 3_600_000, lastBarOpen: D0 }]);
    // Not day 1's open 102 from 20 hours before the order existed: day 2's open 120, at its open.
    expect(fills).toEqual([`${2 * DAY} BUY 1@120`]);
    // The venue learns of that fill when day 2's bar arrives at its close: the strategy is told
    // then, its clock at that time, not at 20:00 of day 1 (where its clock stood before it).
    expect(told).toEqual([{ at: D0 + 3 * DAY, filledAt: D0 + 2 * DAY }]);
  });
});
