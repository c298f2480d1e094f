import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BacktestRunOptions, runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { quoteRecordAt, TEST_HEADER, writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
/** The TIME order's sym: conditions are PLACE_ORDER's, whose orders are US equities' (the gate denies one on crypto). */
const AAPL = 'US_EQUITY_AAPL';
const T0 = TEST_HEADER.startTime;
const aTempDir = tempDirsRemovedAfterAll('keel-endfix-inflight-');

const LATENCY: BacktestRunOptions['latency'] = {
  orderEntry: { fixedMs: 20, jitterMs: 0 },
  marketData: { fixedMs: 0, jitterMs: 0 },
  userData: { fixedMs: 5, jitterMs: 0 },
};

/**
 * On the last quote (10 s, 09:30:10 New York on a Monday) sends a market buy and a limit buy far
 * below of BTC, and a TIME buy of AAPL due 30 s after the data ends.
 */
const lastQuoteTrader = defineStrategy({
  name: 'last-quote',
  params: z.object({}),
  onQuote: (ctx, q) =>
    q.ts === T0 + 10_000
      ? [
          ctx.order.market({ sym: BTC, side: 'BUY', qty: 1, ref: 'mkt' }),
          ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 50, ref: 'lmt' }),
          ctx.order.conditional({
            sym: AAPL,
            side: 'BUY',
            qty: 1,
            code: 'TIME',
            sendAt: T0 + 40_000,
            ref: 'tim',
          }),
        ]
      : undefined,
});

async function run(closeAtEnd: boolean) {
  const path = join(aTempDir(), 'quotes.jsonl');
  await writeRecording(
    path,
    Array.from({ length: 11 }, (_, i) => [
      quoteRecordAt(i * 1000, '100', '100.1'),
      quoteRecordAt(i * 1000, '190', '190.1', AAPL),
    ]).flat(),
  );
  const result = await runBacktest({
    recordings: [path],
    decode: decodeMarketRecord,
    instruments: [anInstrument(BTC), anInstrument(AAPL)],
    strategies: [{ id: 't', strategy: lastQuoteTrader }],
    gate: new RiskGate(),
    startingCash: D(10_000),
    closeAtEnd,
    fillModel: 'touch',
    latency: LATENCY,
  });
  const out = {
    orders: [...result.orders].map((o) => `${o.clientOrderId} ${o.orderState}`),
    fills: [...result.fills].map(
      (f) => `${f.side} ${f.quantity.toFixed()} @ ${f.price.toFixed()} +${f.timestamp - T0 - 10_000}`,
    ),
    end: (result.equityCurve.at(-1)?.ts ?? 0) - T0 - 10_000,
    warnings: result.meta.warnings ?? [],
  };
  result.dispose?.();
  return out;
}

describe('commands in flight at the end', () => {
  it.each([false, true])('closeAtEnd %s', async (closeAtEnd) => {
    const out = await run(closeAtEnd);
    expect(out.fills[0]).toBe('BUY 1 @ 100.1 +20');
    expect(out.warnings.filter((w) => w.includes('was never sent'))).toHaveLength(1);
    // The run ends at its last event or its last fill, not a settle window later.
    expect(out.end).toBeLessThan(1000);
  });
});
