import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RecordedMessage } from '../../../../backtest/recording/index.ts';
import { runBacktest } from '../../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../../core/kernel/index.ts';
import { D, ZERO } from '../../../../core/model/index.ts';
import { RiskGate } from '../../../../core/risk/index.ts';
import { anInstrument } from '../../../kit/instrument-builders.ts';
import { decodeQuotesAndTrades } from '../../../kit/quote-trade-decoder.ts';
import { TEST_HEADER, tempDir, writeRecording } from '../../../kit/recording-files.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
function quote(dt: number, bid: string, ask: string, askqty: string): RecordedMessage {
  const ts = TEST_HEADER.startTime + dt;
  return {
    recvTs: ts,
    source: 'market-data',
    msg: { arg: { channel: 'BBO', sym: SYM }, data: { bid, bidqty: '5', ask, askqty, ts } },
  };
}

/** BUY 3 at market against 1 offered at 100 (the rest beyond the book), then SELL 1, then hold. */
const script = defineStrategy<Record<string, never>, { n: number }>({
  name: 'partial-lot',
  params: z.object({}),
  state: () => ({ n: 0 }),
  onQuote: (ctx) => {
    const n = ++ctx.state.n;
    if (n === 1) return ctx.order.market({ sym: SYM, side: 'BUY', qty: D(3) });
    if (n === 3) return ctx.order.market({ sym: SYM, side: 'SELL', qty: D(1) });
    return undefined;
  },
});

const dirs: (() => void)[] = [];
afterEach(() => {
  for (const r of dirs.splice(0)) r();
});

describe('a round trip closing part of a lot one order opened in pieces', () => {
  it('has the gross PnL the venue realized on its fill (rpnl), as a finite decimal', async () => {
    const t = tempDir();
    dirs.push(t.remove);
    const path = join(t.dir, 'q.jsonl');
    await writeRecording(path, [
      quote(0, '99.9', '100', '1'),
      quote(1000, '99.9', '100', '1'),
      quote(2000, '102', '102.1', '5'),
      quote(3000, '102', '102.1', '5'),
      quote(4000, '103', '103.1', '5'),
    ]);
    const result = await runBacktest({
      recordings: [path],
      decode: decodeQuotesAndTrades,
      instruments: [anInstrument(SYM, { minNotional: D(0) })],
      strategies: [{ id: 's', strategy: script, params: {} }],
      gate: new RiskGate(),
      startingCash: D(100_000),
      fillModel: 'queue',
      closeAtEnd: true,
      latency: { orderEntry: { fixedMs: 0, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    });
    try {
      const fills = [...result.fills];
      const exits = fills.filter((f) => f.side === 'SELL');
      // one exit order per trade here: each trade's gross PnL is its exit fill's rpnl
      expect([...result.trades].map((tr) => tr.grossPnl.toFixed())).toEqual(
        exits.map((f) => f.rpnl.toFixed()),
      );
      let gross = ZERO;
      for (const tr of [...result.trades]) gross = gross.plus(tr.grossPnl);
      expect(gross.toFixed()).toBe(exits.reduce((s, f) => s.plus(f.rpnl), ZERO).toFixed());
    } finally {
      result.dispose?.();
    }
  }, 60_000);
});
