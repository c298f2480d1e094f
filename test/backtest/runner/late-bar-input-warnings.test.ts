import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { lateBarInputWarnings, runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, aTrade, BTC } from '../../kit/kernel-events.ts';
import { decodeQuotesAndTrades } from '../../kit/quote-trade-decoder.ts';
import { quoteRecordAt, TEST_HEADER, tempDir, writeRecording } from '../../kit/recording-files.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = TEST_HEADER.startTime;

const trade = (tsDt: number, recvDt: number, price: string): RecordedMessage => ({
  recvTs: T0 + recvDt,
  source: 'market-data',
  msg: {
    arg: { channel: 'TRADE', sym: SYM },
    data: { tradeId: `t${tsDt}`, price, qty: '1', side: 'BUY', ts: T0 + tsDt },
  },
});

describe('run backtest: a trade of an aggregated bar received after another event closed the bar', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());

  it('delivers one bar per minute, leaves the late trade out and says so in the warnings', async () => {
    const path = join(temp.dir, 'late-trade.jsonl');
    // Minute 0: trades at 100 (T0+1s) and 105 (stamped T0+59.990 s, received T0+60.020 s, after
    // a quote received at T0+60.005 s). Minute 1: a trade at 101.
    await writeRecording(path, [
      trade(1_000, 1_000, '100'),
      quoteRecordAt(60_005, '99', '101'),
      trade(59_990, 60_020, '105'),
      trade(61_000, 61_000, '101'),
      trade(121_000, 121_000, '102'),
    ]);
    const seen: string[] = [];
    const watcher = defineStrategy({
      name: 'bars',
      params: z.object({}).strict(),
      onStart: (ctx) => ctx.watchBars(SYM, '1m'),
      onBar: (ctx, bar) => {
        seen.push(
          `open T0+${(bar.openTime - T0) / 1000}s o${bar.open} h${bar.high} c${bar.close} seen at T0+${(ctx.now() - T0) / 1000}s`,
        );
      },
    });
    const result = await runBacktest({
      recordings: [path],
      decode: decodeQuotesAndTrades,
      instruments: [anInstrument(SYM)],
      strategies: [{ id: 'w', strategy: watcher, params: {} }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      closeAtEnd: false,
    });
    result.dispose?.();
    // Minute 0 was delivered when the quote received at T0+60.005 s ended it, with the trade at 100 only:
    // the trade at 105 came after and cannot change a bar the strategy already had.
    expect(seen.filter((s) => s.startsWith('open T0+0s'))).toHaveLength(1);
    expect(seen[0]).toMatch(/^open T0\+0s o100 h100 c100 /);
    expect(seen[1]).toMatch(/^open T0\+60s o101 h101 c101/);
    expect(result.meta.warnings).toContain(
      `1 trade of ${SYM} in the recordings arrived after the 1m bar it belongs to had closed (the first stamped ${new Date(T0 + 59_990).toISOString()}) and was left out of the 1m bars: strategies had already seen that bar, so its OHLCV lacks it`,
    );
  });
});

describe('late bar input warnings', () => {
  it('name the finer klines left out of coarser bars, and the feed in a session', () => {
    const watcher = defineStrategy({
      name: 'five',
      params: z.object({}),
      onStart: (ctx) => ctx.watchBars(BTC, '5m'),
    });
    const { kernel } = aKernelRig([{ id: 'w', strategy: watcher }]);
    for (let i = 0; i < 4; i++) kernel.push(aFeedBar(i * 60_000, [100, 101, 99, 100, 1]));
    kernel.push(aFeedBar(300_000, [100, 101, 99, 100, 1]));
    kernel.push({ ...aFeedBar(240_000, [100, 101, 99, 100, 1]), ts: 360_010, recvTs: 360_010 });
    kernel.push({ ...aFeedBar(180_000, [100, 101, 99, 100, 1]), ts: 360_020, recvTs: 360_020 });
    expect(lateBarInputWarnings(kernel, 'the feed')).toEqual([
      `2 1m bars of ${BTC} in the feed arrived after the 5m bar they belong to had closed (the first stamped 1970-01-01T00:06:00.010Z) and were left out of the 5m bars: strategies had already seen that bar, so its OHLCV lacks them`,
    ]);
  });
});

describe('late bar input warnings for finer bars of another interval', () => {
  it('name a 5m kline left out of a 15m bar built from 1m klines it overlapped', () => {
    const watcher = defineStrategy({
      name: 'fifteen',
      params: z.object({}),
      onStart: (ctx) => ctx.watchBars(BTC, '15m'),
    });
    const { kernel } = aKernelRig([{ id: 'w', strategy: watcher }]);
    for (let i = 0; i < 7; i++) kernel.push(aFeedBar(i * 60_000, [100, 101, 99, 100, 1]));
    for (const openTime of [300_000, 600_000]) {
      const ts = openTime + 300_000;
      kernel.push({ ...aFeedBar(openTime, [100, 101, 99, 100, 50]), interval: '5m', ts, recvTs: ts });
    }
    expect(lateBarInputWarnings(kernel, 'the feed')).toEqual([
      `1 5m bar of ${BTC} in the feed began inside the finer bars the 15m bar it belongs to was being built from and ran past them (the first stamped 1970-01-01T00:10:00.000Z), and was left out of the 15m bars so as not to count that part twice: the feed switched interval part-way through it, so the OHLCV of that bar lacks what it held after the finer bars`,
    ]);
  });
});

describe('late bar input warnings for repeated and off-grid klines', () => {
  it('name a kline repeated by the feed, once per interval it was left out of', () => {
    const watcher = defineStrategy({
      name: 'one-five',
      params: z.object({}),
      onStart: (ctx) => {
        ctx.watchBars(BTC, '1m');
        ctx.watchBars(BTC, '5m');
      },
    });
    const { kernel } = aKernelRig([{ id: 'w', strategy: watcher }]);
    kernel.push(aFeedBar(0, [100, 101, 99, 100, 1]));
    kernel.push({ ...aFeedBar(0, [100, 101, 99, 100, 1]), ts: 60_250, recvTs: 60_250 });
    expect(lateBarInputWarnings(kernel, 'the feed')).toEqual([
      `1 1m bar of ${BTC} in the feed repeated a bar of a period the feed had already given (the same kline twice, as from overlapping history files, or out of order; the first stamped 1970-01-01T00:01:00.250Z) and was not delivered to the 1m watchers again, so no period counts twice`,
      `1 1m bar of ${BTC} in the feed repeated a bar of a period the feed had already given (the same kline twice, as from overlapping history files, or out of order; the first stamped 1970-01-01T00:01:00.250Z) and was not folded into the 5m bars again, so no period counts twice`,
    ]);
  });

  it('name a 1h kline reaching past the end of the 4h bar it begins in', () => {
    const watcher = defineStrategy({
      name: 'four',
      params: z.object({}),
      onStart: (ctx) => ctx.watchBars(BTC, '4h'),
    });
    const { kernel } = aKernelRig([{ id: 'w', strategy: watcher }]);
    const hour = 3_600_000;
    for (const half of [2.5, 3.5]) {
      const openTime = half * hour;
      const ts = openTime + hour;
      kernel.push({ ...aFeedBar(openTime, [100, 101, 99, 100, 1]), interval: '1h', ts, recvTs: ts });
    }
    expect(lateBarInputWarnings(kernel, 'the recordings')).toEqual([
      `1 1h bar of ${BTC} in the recordings reached past the end of the 4h bar it begins in (klines off the UTC grid, as 1h bars opening on the half hour; the first stamped 1970-01-01T04:30:00.000Z) and was left out of the 4h bars so that no bar holds market after its end: those bars lack it (watch an interval whose bars the klines' opens fit)`,
    ]);
  });

  it('name a 1h kline off the hour that overlapped a 1h bar built before the feed’s 1h bars began', () => {
    const watcher = defineStrategy({
      name: 'hour',
      params: z.object({}),
      onStart: (ctx) => ctx.watchBars(BTC, '1h'),
    });
    const { kernel } = aKernelRig([{ id: 'w', strategy: watcher }]);
    const hour = 3_600_000;
    for (let m = 0; m < 90; m++) kernel.push(aFeedBar(m * 60_000, [100, 101, 99, 100, 1]));
    kernel.push({
      ...aFeedBar(0.5 * hour, [100, 101, 99, 100, 1]),
      interval: '1h',
      ts: 1.5 * hour,
      recvTs: 1.5 * hour,
    });
    expect(lateBarInputWarnings(kernel, 'the feed')).toEqual([
      `1 1h bar of ${BTC} in the feed opened off the UTC grid of 1h bars (as 1h klines on the half hour; the first stamped 1970-01-01T01:30:00.000Z) and overlapped a bar Keel had built and delivered before the feed's bars began, so it was not delivered: no two 1h bars overlap, and while the feed's bars come Keel builds none overlapping them`,
    ]);
  });
});

describe('late bar input warnings for klines that stopped', () => {
  it('name the trades passed over until 5m bars built from 1m klines went back to trades', () => {
    const watcher = defineStrategy({
      name: 'five-stopped',
      params: z.object({}),
      onStart: (ctx) => ctx.watchBars(BTC, '5m'),
    });
    const { kernel } = aKernelRig([{ id: 'w', strategy: watcher }]);
    for (let m = 0; m < 5; m++) kernel.push(aFeedBar(m * 60_000, [100, 101, 99, 100, 1]));
    // No kline after minute 4: trades at 00:05:30 and 00:06:30 are passed over, the one at 00:07:30 builds a bar.
    for (const ts of [330_000, 390_000, 450_000]) kernel.push(aTrade(ts, 100, 1));
    expect(lateBarInputWarnings(kernel, 'the feed')).toEqual([
      `2 trades of ${BTC} in the feed came after the finer klines the 5m bars were built from stopped (the first stamped 1970-01-01T00:05:30.000Z) and were left out until the bars went back to trades, a whole kline interval after the missing kline was due: the first 5m bar built of trades after that is flagged partial`,
    ]);
  });
});
