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

const SYM = 'BINANCE_PERP_BTC_USDT'; // 21 characters

/** Switches to BOTH mode, then holds LONG 0.1 and SHORT 0.1 to the end of the run. */
const hedger = defineStrategy({
  name: 'hedger',
  params: z.object({}).strict(),
  state: () => ({ sent: false }),
  onStart: (ctx) => ctx.order.setPositionMode('BOTH'),
  onQuote: (ctx) => {
    if (ctx.state.sent || ctx.positionMode() !== 'BOTH') return undefined;
    ctx.state.sent = true;
    return [
      ctx.order.market({ sym: SYM, side: 'BUY', qty: D('0.1'), positionSide: 'LONG' }),
      ctx.order.market({ sym: SYM, side: 'SELL', qty: D('0.1'), positionSide: 'SHORT' }),
    ];
  },
});

describe('hedge mode: the end-of-run close of both legs', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());
  const path = join(temp.dir, 'hedge-end-close.jsonl');
  beforeAll(async () => {
    await writeRecording(
      path,
      Array.from({ length: 20 }, (_, i) => quoteRecordAt(3 * i, '100', '100.1')),
    );
  });

  it("books both legs' closing fills as Keel's own, with its bt-end references", async () => {
    const result = await runBacktest({
      recordings: [path],
      decode: decodeQuotesAndTrades,
      instruments: [anInstrument(SYM)],
      strategies: [{ id: 'h', strategy: hedger, params: {} }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      closeAtEnd: true,
      fillModel: 'touch',
    });
    const fills = [...result.fills].map(
      (f) =>
        `${f.side} ${f.positionSide} ${f.quantity.toFixed()} @ ${f.price.toFixed()} ${f.clientOrderId} owner=${f.strategyId}`,
    );
    result.dispose?.();
    expect(fills.slice(2).map((l) => l.replace(/ \S+ owner=/, ' owner='))).toEqual([
      'SELL LONG 0.1 @ 100 owner=keel',
      'BUY SHORT 0.1 @ 100.1 owner=keel',
    ]);
  });
});

const DOGE = 'BINANCE_PERP_DOGE_USDT'; // 22 characters

/** NET mode: buys 100 DOGE once and holds it to the end of the run. */
const dogeBuyer = defineStrategy({
  name: 'doge-buyer',
  params: z.object({}).strict(),
  state: () => ({ sent: false }),
  onQuote: (ctx) => {
    if (ctx.state.sent) return undefined;
    ctx.state.sent = true;
    return ctx.order.market({ sym: DOGE, side: 'BUY', qty: D('100') });
  },
});

describe('NET mode: the end-of-run close on a sym of 22 characters', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());
  const path = join(temp.dir, 'doge-end-close.jsonl');
  beforeAll(async () => {
    await writeRecording(
      path,
      Array.from({ length: 20 }, (_, i) => {
        const r = quoteRecordAt(3 * i, '0.1', '0.1001');
        return { ...r, msg: { ...(r.msg as object), arg: { channel: 'BBO', sym: DOGE } } } as typeof r;
      }),
    );
  });

  it("books the closing fill as Keel's own", async () => {
    const result = await runBacktest({
      recordings: [path],
      decode: decodeQuotesAndTrades,
      instruments: [anInstrument(DOGE)],
      strategies: [{ id: 'd', strategy: dogeBuyer, params: {} }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      closeAtEnd: true,
      fillModel: 'touch',
    });
    const fills = [...result.fills].map(
      (f) => `${f.side} ${f.quantity.toFixed()} ${f.clientOrderId} owner=${f.strategyId}`,
    );
    result.dispose?.();
    // the end-of-run close's SELL fills are Keel's (strategyId "keel"), as for shorter syms
    expect(fills.filter((l) => l.startsWith('SELL')).map((l) => l.replace(/^.* owner=/, 'owner='))).toEqual([
      'owner=keel',
      'owner=keel',
    ]);
  });
});
