import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** Buys 0.1 at market on the last quote of the recording (T0+57): its fill comes after the replay's end. */
const lastMinuteBuyer = defineStrategy({
  name: 'last-minute-buyer',
  params: z.object({}).strict(),
  onQuote: (ctx) =>
    ctx.now() === T0 + 57 ? ctx.order.market({ sym: SYM, side: 'BUY', qty: D('0.1') }) : undefined,
});

describe('backtest runner: the end-of-run close', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());
  const path = join(temp.dir, 'end-close.jsonl');
  beforeAll(async () => {
    await writeRecording(
      path,
      Array.from({ length: 20 }, (_, i) => quoteRecordAt(3 * i, '100', '100.1')),
    );
  });

  it('closes a position opened by an order still on its way when the replay ended', async () => {
    const result = await runBacktest({
      recordings: [path],
      decode: decodeQuotesAndTrades,
      instruments: [anInstrument(SYM)],
      strategies: [{ id: 'b', strategy: lastMinuteBuyer, params: {} }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      closeAtEnd: true,
      fillModel: 'touch',
      latency: {
        orderEntry: { fixedMs: 10, jitterMs: 0 },
        marketData: { fixedMs: 0, jitterMs: 0 },
        userData: { fixedMs: 5, jitterMs: 0 },
      },
    });
    const fills = [...result.fills].map(
      (f) => `${f.side} ${f.quantity.toFixed()} @ ${f.price.toFixed()} ${f.strategyId}`,
    );
    const denials = [...(result.denials ?? [])].map((d) => `${d.intentKind} ${d.check}`);
    result.dispose?.();
    expect(denials).toEqual([]);
    expect(fills).toEqual(['BUY 0.1 @ 100.1 b', 'SELL 0.1 @ 100 keel']);
    expect(result.openTrades).toEqual([]);
  });
});
