import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { decodeQuotesAndTrades } from '../../kit/quote-trade-decoder.ts';
import { quoteRecordAt, TEST_HEADER, tempDir, writeRecording } from '../../kit/recording-files.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = TEST_HEADER.startTime;

/** Buys 0.1 at market from a timer set `delayMs` after the first quote. */
const timerBuyer = defineStrategy<{ delayMs: number }, { armed: boolean }>({
  name: 'timer-buyer',
  params: z.object({ delayMs: z.number() }).strict(),
  state: () => ({ armed: false }),
  onQuote: (ctx) => {
    if (!ctx.state.armed) {
      ctx.state.armed = true;
      ctx.setTimer(ctx.params.delayMs, 'go');
    }
    return undefined;
  },
  onTimer: (ctx) => ctx.order.market({ sym: SYM, side: 'BUY', qty: D('0.1') }),
});

describe('backtest runner: strategy timers between recorded events', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());

  const run = async (delayMs: number) => {
    const path = join(temp.dir, `timer-${delayMs}.jsonl`);
    // Ask 100.1 from T0 until the next quote at T0+1000 (ask 105).
    await writeRecording(path, [
      quoteRecordAt(0, '100', '100.1'),
      quoteRecordAt(1000, '104.9', '105'),
      quoteRecordAt(2000, '104.9', '105'),
    ]);
    const result = await runBacktest({
      recordings: [path],
      decode: decodeQuotesAndTrades,
      instruments: [anInstrument(SYM)],
      strategies: [{ id: 'tb', strategy: timerBuyer, params: { delayMs } }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      closeAtEnd: false,
      latency: { orderEntry: { fixedMs: 10, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    });
    const fills = [...result.fills].map(
      (f) => `T0+${f.timestamp - T0} ${f.side} ${f.quantity.toFixed()} @ ${f.price.toFixed()}`,
    );
    result.dispose?.();
    return fills;
  };

  it('sends what a timer sends at the timer time: it arrives 10 ms later and meets the market of then', async () => {
    // Timer at T0+100, order entry 10 ms: arrives T0+110, while the ask is still 100.1. Sent at the
    // next quote instead it would arrive at T0+1010 and pay 105.
    expect(await run(100)).toEqual(['T0+110 BUY 0.1 @ 100.1']);
  });

  it('fires a timer due after an event once that event was seen: it then meets the later market', async () => {
    // Timer at T0+1500: the quote of T0+1000 (ask 105) is the market at T0+1510.
    expect(await run(1500)).toEqual(['T0+1510 BUY 0.1 @ 105']);
  });
});
