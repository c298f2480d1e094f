import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { ZERO_LATENCY } from '../../../backtest/sim/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { decodeQuotesAndTrades } from '../../kit/quote-trade-decoder.ts';
import { quoteRecordAt, tempDir, writeRecording } from '../../kit/recording-files.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';

/** Buys 0.1 at market on its first quote, closes the position on the quote after the fill. */
const closer = defineStrategy<Record<string, never>, { step: number }>({
  name: 'closer',
  params: z.object({}).strict(),
  state: () => ({ step: 0 }),
  onQuote: (ctx) => {
    if (ctx.state.step === 0) {
      ctx.state.step = 1;
      return ctx.order.market({ sym: SYM, side: 'BUY', qty: D('0.1') });
    }
    if (ctx.state.step !== 2 || ctx.netQty(SYM).isZero()) return undefined;
    ctx.state.step = 3;
    return ctx.order.closePosition(SYM);
  },
  onFill: (ctx) => {
    if (ctx.state.step === 1) ctx.state.step = 2;
  },
});

describe("a position close the venue names is recorded as its strategy's behind a User Data latency", () => {
  const temp = tempDir();
  afterAll(() => temp.remove());
  const path = join(temp.dir, 'close.jsonl');
  beforeAll(async () => {
    await writeRecording(
      path,
      Array.from({ length: 40 }, (_, i) => quoteRecordAt(10 * i, '100', '100.1')),
    );
  });

  it.each([0, 5])(
    'attributes the SIM-C order, its fill and the trade it exits to the closer (User Data %i ms)',
    async (userDataMs) => {
      const result = await runBacktest({
        recordings: [path],
        decode: decodeQuotesAndTrades,
        instruments: [anInstrument(SYM)],
        strategies: [{ id: 'cl', strategy: closer, params: {} }],
        gate: new RiskGate(),
        startingCash: D(10_000),
        closeAtEnd: false,
        fillModel: 'touch',
        latency: { ...ZERO_LATENCY, userData: { fixedMs: userDataMs, jitterMs: 0 } },
      });
      const closeFills = [...result.fills].filter((f) => f.clientOrderId.startsWith('SIM-C-'));
      const closeOrders = [...result.orders].filter((o) => o.clientOrderId.startsWith('SIM-C-'));
      const exits = [...result.trades].map((t) => t.exitStrategyId);
      result.dispose?.();
      expect(closeFills.map((f) => f.strategyId)).toEqual(['cl']);
      expect(closeOrders.map((o) => o.strategyId)).toEqual(['cl']);
      expect(exits).toEqual(['cl']);
    },
  );
});
