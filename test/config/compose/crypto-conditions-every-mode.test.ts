import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { withListFeedPaperSession } from '../../kit/list-feed-paper-session.ts';
import { quoteRecordAt, writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const newDir = tempDirsRemovedAfterEach('keel-crypto-conditions-');

const QUOTES = [0, 1_000, 2_000].map((t) => quoteRecordAt(t, '95000.1', '95000.3'));

/** The reason the gate gives for conditional order `ref` of BTC with condition `code`. */
function reason(ref: string, code: string): string {
  return `order ${ref} on ${BTC} is a ${code} conditional order, but conditions are PLACE_ORDER's (US equities) and the venue's crypto orders carry none: place an algo order (ctx.order.algo) instead`;
}

/**
 * On its first quote places an SL sell and a TIME buy of BTC (`ctx.order.conditional`), which the
 * venue's crypto orders cannot carry; writes every denial, order update and fill it hears into
 * `heard`. With `stopsSession` it stops the session (as a SIGTERM does) on its third quote.
 */
function cryptoConditionals(heard: string[], stopsSession: boolean) {
  return defineStrategy<Record<string, never>, { quotes: number }>({
    name: 'crypto-conditionals',
    params: z.object({}),
    state: () => ({ quotes: 0 }),
    onQuote: (ctx) => {
      ctx.state.quotes++;
      if (stopsSession && ctx.state.quotes === 3) process.emit('SIGTERM');
      if (ctx.state.quotes !== 1) return undefined;
      return [
        ctx.order.conditional({
          sym: BTC,
          side: 'SELL',
          qty: '0.01',
          code: 'SL',
          triggerPrice: 94_000,
          ref: 'sl',
        }),
        ctx.order.conditional({
          sym: BTC,
          side: 'BUY',
          qty: '0.01',
          code: 'TIME',
          sendAt: ctx.now() + 1_000,
          ref: 'tim',
        }),
      ];
    },
    onDenied: (_ctx, denial) => {
      heard.push(`denied ${denial.ref} ${denial.source} ${denial.check}: ${denial.reason}`);
    },
    onOrder: (_ctx, order) => {
      heard.push(`order ${order.clientOrderId} ${order.orderState}`);
    },
    onFill: (_ctx, fill) => {
      heard.push(`fill ${fill.orderId}`);
    },
  });
}

/** What the strategy hears: both orders denied by the gate, nothing placed. */
const BOTH_DENIED = [
  `denied sl risk cryptoConditions: ${reason('sl', 'SL')}`,
  `denied tim risk cryptoConditions: ${reason('tim', 'TIME')}`,
];

describe('a conditional order on a crypto sym is denied in every mode', () => {
  it('in a backtest, whose sim could hold it: denied as paper and live deny it, nothing placed', async () => {
    const heard: string[] = [];
    const path = join(newDir(), 'quotes.jsonl');
    await writeRecording(path, QUOTES);
    const result = await runBacktest({
      recordings: [path],
      decode: decodeMarketRecord,
      instruments: [anInstrument(BTC)],
      strategies: [{ id: 's', strategy: cryptoConditionals(heard, false) }],
      gate: new RiskGate(),
      startingCash: D(100_000),
      closeAtEnd: false,
    });
    const denials = [...(result.denials ?? [])].map((d) => `${d.strategyId} ${d.sym} ${d.check}`);
    const orders = [...result.orders];
    const fills = [...result.fills];
    result.dispose?.();
    expect(heard).toEqual(BOTH_DENIED);
    expect(denials).toEqual([`s ${BTC} cryptoConditions`, `s ${BTC} cryptoConditions`]);
    expect(orders).toEqual([]);
    expect(fills).toEqual([]);
  });

  it('in a paper session: denied before the venue, which would have sent it at once as a plain order', async () => {
    const heard: string[] = [];
    await withListFeedPaperSession(
      {
        dir: newDir(),
        quotes: QUOTES,
        slot: { id: 's', strategy: cryptoConditionals(heard, true) },
        name: 'crypto-conditions-test',
      },
      (outcome) => {
        const denials = [...(outcome.result.denials ?? [])].map((d) => `${d.strategyId} ${d.sym} ${d.check}`);
        const orders = [...outcome.result.orders];
        const fills = [...outcome.result.fills];
        outcome.result.dispose?.();
        expect(heard).toEqual(BOTH_DENIED);
        expect(denials).toEqual([`s ${BTC} cryptoConditions`, `s ${BTC} cryptoConditions`]);
        expect(orders).toEqual([]);
        expect(fills).toEqual([]);
      },
    );
  }, 30_000);
});
