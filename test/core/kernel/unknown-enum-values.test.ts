import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { BacktestResult } from '../../../backtest/report/index.ts';
import { resultToJson } from '../../../backtest/report/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D, type PositionMode, type PositionSide } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { writeRecording } from '../../kit/recording-files.ts';
import { BTC } from '../../kit/sim-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterAll('keel-bad-side-');
const T0 = Date.UTC(2025, 0, 6);

/**
 * Backtests one quote of BTC on which a plugin (JavaScript, no type checking) sends one market
 * BUY of 1 with `fields` written over it.
 */
async function oneMarketOrder(
  fields: { readonly side?: string; readonly positionSide?: string },
  positionMode: PositionMode,
): Promise<BacktestResult> {
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
  const plugin = defineStrategy({
    name: 'plugin',
    params: z.object({}),
    syms: () => [BTC],
    state: () => ({ sent: false }),
    onQuote: (ctx) => {
      if (ctx.state.sent) return undefined;
      ctx.state.sent = true;
      return ctx.order.market({
        sym: BTC,
        side: (fields.side ?? 'BUY') as 'BUY',
        qty: '1',
        ...(fields.positionSide === undefined ? {} : { positionSide: fields.positionSide as PositionSide }),
      });
    },
  });
  return runBacktest({
    recordings: [path],
    decode: decodeMarketRecord,
    instruments: [anInstrument(BTC)],
    strategies: [{ id: 's', strategy: plugin }],
    gate: new RiskGate(),
    startingCash: D(10_000),
    closeAtEnd: false,
    sim: { positionMode },
  });
}

describe('a plugin order with a field outside its values', () => {
  it('a positionSide of "long" in BOTH mode is denied instead of reaching the venue and breaking the result', async () => {
    const result = await oneMarketOrder({ positionSide: 'long' }, 'BOTH');
    expect(() => resultToJson(result)).not.toThrow();
    expect([...(result.denials ?? [])].map((d) => `${d.check}: ${d.reason}`)).toEqual([
      'fieldValues: placeOrder s-1: positionSide "long" is not one of NONE, LONG, SHORT',
    ]);
  });

  it('a lower-case side: "buy" is denied, never filled as a SELL', async () => {
    const result = await oneMarketOrder({ side: 'buy' }, 'NET');
    const fills = [...result.fills].map((f) => `${f.side} ${f.quantity.toFixed()}@${f.price.toFixed()}`);
    const positions = result.openTrades.map((t) => JSON.stringify(t));
    expect({ fills, positions, denials: [...(result.denials ?? [])].map((d) => d.check) }).toEqual({
      fills: [],
      positions: [],
      denials: [expect.any(String)],
    });
  });
});
