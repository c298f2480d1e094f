import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { decodeQuotesAndTrades } from '../../kit/quote-trade-decoder.ts';
import { quoteRecordAt, tempDir, writeRecording } from '../../kit/recording-files.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const log: string[] = [];

/** An entry trailing stop (BUY, not reduce-only) placed in NET mode, then a switch to `mode`. */
const switcher = (mode: 'NET' | 'BOTH') =>
  defineStrategy({
    name: 'switcher',
    params: z.object({}).strict(),
    state: () => ({ n: 0 }),
    onQuote: (ctx) => {
      ctx.state.n++;
      if (ctx.state.n === 1)
        return ctx.order.trailingStop({
          sym: SYM,
          side: 'BUY',
          qty: D('0.1'),
          offset: { price: 1 },
          reduceOnly: false,
          triggerOn: 'bidAsk',
          ref: 'trail',
        });
      if (ctx.state.n === 3) return ctx.order.setPositionMode(mode);
      return undefined;
    },
    onDenied: (_ctx, d) => {
      log.push(`denied ${d.ref} ${d.check}`);
    },
  });

describe('switching position mode with a trailing stop pending', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());
  const path = join(temp.dir, 'switch.jsonl');
  beforeAll(async () => {
    const asks = ['100.1', '100.1', '100.1', '100.1', '100.1', '100.1', '100.1', '102', '102', '102'];
    await writeRecording(
      path,
      asks.map((ask, i) => quoteRecordAt(1000 * i, '100', ask)),
    );
  });

  const run = async (mode: 'NET' | 'BOTH') => {
    log.length = 0;
    const result = await runBacktest({
      recordings: [path],
      decode: decodeQuotesAndTrades,
      instruments: [anInstrument(SYM)],
      strategies: [{ id: 's', strategy: switcher(mode), params: {} }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      closeAtEnd: false,
      fillModel: 'touch',
    });
    const fills = [...result.fills].map((f) => `${f.side} ${f.positionSide} ${f.quantity.toFixed()}`);
    const denials = [...(result.denials ?? [])].map((d) => `${d.intentKind} ${d.ref} ${d.check}`);
    result.dispose?.();
    return { fills, denials };
  };

  it('refuses a switch to BOTH, and the stop fires on the leg the venue takes', async () => {
    const { fills, denials } = await run('BOTH');
    // the kernel refuses the switch while the emulated stop is open (as the venue refuses one while
    // it holds an order), so the stop stays in NET mode and its MARKET order fills when it fires
    expect(log).toEqual(['denied s-1 kernel.trailingStop']);
    expect(denials).toEqual(['setPositionMode s-1 kernel.trailingStop']);
    expect(fills).toEqual(['BUY NONE 0.1']);
  });

  it('lets a switch to the mode already in force through: it changes no stop', async () => {
    const { fills, denials } = await run('NET');
    expect(log).toEqual([]);
    expect(denials).toEqual([]);
    expect(fills).toEqual(['BUY NONE 0.1']);
  });
});
