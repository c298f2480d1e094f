import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D, type PositionMode } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { writeRecording } from '../../kit/recording-files.ts';
import { BTC } from '../../kit/sim-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterAll('keel-netqty-');
const T0 = Date.UTC(2025, 0, 6);

/** Market BUY 0.05 into a 0.001 ask: two fills of one order (0.001 at the ask, 0.049 one tick beyond). */
async function netQtySeenInOnFill(mode: PositionMode): Promise<string[]> {
  const path = join(dir(), `q-${mode}.jsonl`);
  const quote = (ts: number) => ({
    recvTs: ts,
    source: 'market-data' as const,
    msg: {
      arg: { channel: 'BBO', sym: BTC },
      data: { bid: '100', bidqty: '0.001', ask: '100.1', askqty: '0.001', ts },
    },
  });
  await writeRecording(path, [quote(T0), quote(T0 + 1000)]);
  const seen: string[] = [];
  const strategy = defineStrategy({
    name: 'netqty',
    params: z.object({}),
    syms: () => [BTC],
    state: () => ({ sent: false }),
    onQuote: (ctx) => {
      if (ctx.state.sent) return undefined;
      ctx.state.sent = true;
      return ctx.order.market({
        sym: BTC,
        side: 'BUY',
        qty: '0.05',
        positionSide: mode === 'NET' ? 'NONE' : 'LONG',
      });
    },
    onFill: (ctx, fill) => {
      seen.push(`fill ${fill.quantity.toFixed()} -> netQty ${ctx.netQty(BTC).toFixed()}`);
    },
  });
  await runBacktest({
    recordings: [path],
    decode: decodeMarketRecord,
    instruments: [anInstrument(BTC)],
    strategies: [{ id: 's', strategy }],
    gate: new RiskGate(),
    startingCash: D(10_000),
    closeAtEnd: false,
    latency: { orderEntry: { fixedMs: 0, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    sim: { positionMode: mode },
  });
  return seen;
}

// strategies/README
// and StrategyHooks.onFill promise "when onFill fires, ctx.netQty already counts it".
describe('ctx.netQty in onFill counts every fill of an order filled in pieces', () => {
  for (const mode of ['NET', 'BOTH'] as const)
    it(mode, async () => {
      expect(await netQtySeenInOnFill(mode)).toEqual([
        'fill 0.001 -> netQty 0.001',
        'fill 0.049 -> netQty 0.05',
      ]);
    });
});
