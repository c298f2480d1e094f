import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resultToJson } from '../../../backtest/report/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D, type PositionSide } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { writeRecording } from '../../kit/recording-files.ts';
import { BTC } from '../../kit/sim-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterAll('keel-bad-side-');
const T0 = Date.UTC(2025, 0, 6);

// Shrunk from the runBacktest fuzzer (fuzz-scripted-backtest.property.test.ts) when its own
// placeholder positionSide leaked into a BOTH-mode script: one quote, one market order.
describe('a plugin order with a positionSide outside NONE / LONG / SHORT in BOTH mode', () => {
  it('is denied (as it is in NET mode) instead of reaching the venue and breaking the result', async () => {
    const path = join(dir(), 'q.jsonl');
    await writeRecording(path, [
      {
        recvTs: T0,
        source: 'market-data',
        msg: {
          arg: { channel: 'BBO', sym: BTC },
          data: { bid: '100', bidqty: '5', ask: '100.1', askqty: '5', ts: T0 },
        },
      },
    ]);
    // a JavaScript plugin (no type checking) writing the side in lower case
    const typo = defineStrategy({
      name: 'typo',
      params: z.object({}),
      syms: () => [BTC],
      state: () => ({ sent: false }),
      onQuote: (ctx) => {
        if (ctx.state.sent) return undefined;
        ctx.state.sent = true;
        return ctx.order.market({ sym: BTC, side: 'BUY', qty: '1', positionSide: 'long' as PositionSide });
      },
    });
    const result = await runBacktest({
      recordings: [path],
      decode: decodeMarketRecord,
      instruments: [anInstrument(BTC)],
      strategies: [{ id: 's', strategy: typo }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      sim: { positionMode: 'BOTH' },
    });
    expect(() => resultToJson(result)).not.toThrow();
    expect([...(result.denials ?? [])].map((d) => `${d.check}: ${d.reason}`)).toEqual([
      'fieldValues: placeOrder s-1: positionSide "long" is not one of NONE, LONG, SHORT',
    ]);
  });

  it('a lower-case side: "buy" is denied, never filled as a SELL', async () => {
    const path = join(dir(), 'q2.jsonl');
    await writeRecording(path, [
      {
        recvTs: T0,
        source: 'market-data',
        msg: {
          arg: { channel: 'BBO', sym: BTC },
          data: { bid: '100', bidqty: '5', ask: '100.1', askqty: '5', ts: T0 },
        },
      },
    ]);
    const lower = defineStrategy({
      name: 'lower',
      params: z.object({}),
      syms: () => [BTC],
      state: () => ({ sent: false }),
      onQuote: (ctx) => {
        if (ctx.state.sent) return undefined;
        ctx.state.sent = true;
        return ctx.order.market({ sym: BTC, side: 'buy' as 'BUY', qty: '1' });
      },
    });
    const result = await runBacktest({
      recordings: [path],
      decode: decodeMarketRecord,
      instruments: [anInstrument(BTC)],
      strategies: [{ id: 's', strategy: lower }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      closeAtEnd: false,
    });
    const fills = [...result.fills].map((f) => `${f.side} ${f.quantity.toFixed()}@${f.price.toFixed()}`);
    const positions = result.openTrades.map((t) => JSON.stringify(t));
    expect({ fills, positions, denials: [...(result.denials ?? [])].map((d) => d.check) }).toEqual({
      fills: [],
      positions: [],
      denials: [expect.any(String)],
    });
  });
});
