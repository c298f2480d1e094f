import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy, type StrategyContext } from '../../../core/kernel/index.ts';
import { D, type Intent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { decodeQuotesAndTrades } from '../../kit/quote-trade-decoder.ts';
import { quoteRecordAt, tempDir, writeRecording } from '../../kit/recording-files.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
/** The ask rises to 102 after the LONG close, through both SHORT-leg stops (trailing 1 over 100.1; algo at 101). */
const ASKS = ['100.1', '100.1', '100.1', '100.1', '100.1', '100.1', '100.1', '102', '102', '102'];

/**
 * Hedge mode: opens a LONG and a SHORT leg, protects the SHORT leg with the order `protect` makes
 * (reduce-only, positionSide SHORT), then closes the LONG leg only; notes its trailing stops' states.
 */
function hedger(log: string[], protect: (ctx: StrategyContext<object, { n: number }>) => Intent) {
  return defineStrategy({
    name: 'hedger',
    params: z.object({}).strict(),
    state: () => ({ n: 0 }),
    onQuote: (ctx) => {
      ctx.state.n++;
      if (ctx.state.n === 1)
        return [
          ctx.order.market({ sym: SYM, side: 'BUY', qty: D('0.1'), positionSide: 'LONG' }),
          ctx.order.market({ sym: SYM, side: 'SELL', qty: D('0.1'), positionSide: 'SHORT' }),
        ];
      if (ctx.state.n === 3) return protect(ctx);
      if (ctx.state.n === 5) return ctx.order.closePosition(SYM, 'LONG');
      return undefined;
    },
    onTrailingStop: (_ctx, u) => {
      log.push(`${u.ref} ${u.status}`);
    },
  });
}

describe('a close of the LONG leg in hedge mode', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());
  const path = join(temp.dir, 'hedge.jsonl');
  beforeAll(async () => {
    await writeRecording(
      path,
      ASKS.map((ask, i) => quoteRecordAt(1000 * i, '100', ask)),
    );
  });

  async function fillsWith(strategy: ReturnType<typeof hedger>): Promise<string[]> {
    const result = await runBacktest({
      recordings: [path],
      decode: decodeQuotesAndTrades,
      instruments: [anInstrument(SYM)],
      strategies: [{ id: 's', strategy, params: {} }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      closeAtEnd: false,
      fillModel: 'touch',
      sim: { positionMode: 'BOTH' },
    });
    const fills = [...result.fills].map((f) => `${f.side} ${f.positionSide} ${f.quantity.toFixed()}`);
    result.dispose?.();
    return fills;
  }

  it("keeps the SHORT leg's reduce-only emulated trailing stop, which then fires", async () => {
    const log: string[] = [];
    const fills = await fillsWith(
      hedger(log, (ctx) =>
        ctx.order.trailingStop({
          sym: SYM,
          side: 'BUY',
          qty: D('0.1'),
          offset: { price: 1 },
          positionSide: 'SHORT',
          triggerOn: 'bidAsk',
          ref: 'short-trail',
        }),
      ),
    );
    expect(log).not.toContain('short-trail CANCELLED');
    expect(fills).toEqual(['BUY LONG 0.1', 'SELL SHORT 0.1', 'SELL LONG 0.1', 'BUY SHORT 0.1']);
  });

  it('keeps a venue-held reduce-only algo stop on the SHORT leg, for comparison', async () => {
    const fills = await fillsWith(
      hedger([], (ctx) =>
        ctx.order.algo({
          sym: SYM,
          side: 'BUY',
          qty: D('0.1'),
          triggerPrice: D('101'),
          condition: 'GTE',
          reduceOnly: true,
          positionSide: 'SHORT',
        }),
      ),
    );
    expect(fills).toEqual(['BUY LONG 0.1', 'SELL SHORT 0.1', 'SELL LONG 0.1', 'BUY SHORT 0.1']);
  });
});
