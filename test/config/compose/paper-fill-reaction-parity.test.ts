import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paperAndBacktestResults } from '../../kit/paper-and-backtest-runs.ts';
import { quoteRecordAt, TEST_HEADER, writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = TEST_HEADER.startTime;
const tempDir = tempDirsRemovedAfterEach('keel-fill-reaction-');

// Buys at the first quote; on the entry's fill places a SELL stop (an algo order, sent over REST)
// at 99500 and a BUY limit (over the WebSocket) at 99000, both before the dip 5 ms later in a backtest.
const STRATEGY_TS = `import { z } from 'zod';
import { defineStrategy } from '${resolve('core/kernel/index.ts')}';
import { isFinalOrderState } from '${resolve('core/model/index.ts')}';
export default defineStrategy({
  name: 'react-to-fill',
  params: z.object({}),
  state: () => ({ started: false }),
  onQuote: (ctx, q) => {
    if (ctx.state.started) return;
    ctx.state.started = true;
    return ctx.order.market({ sym: q.sym, side: 'BUY', qty: 0.1, ref: 'rf-ENTRY' });
  },
  onOrder: (ctx, o) => {
    if (o.clientOrderId !== 'rf-ENTRY' || !isFinalOrderState(o.orderState)) return;
    return [
      ctx.order.algo({ sym: o.sym, side: 'SELL', qty: 0.1, condition: 'LTE', triggerPrice: 99500, reduceOnly: true, ref: 'rf-STOP' }),
      ctx.order.limit({ sym: o.sym, side: 'BUY', qty: 0.1, price: 99000, ref: 'rf-DIPBUY' }),
    ];
  },
});
`;

const trade = (dt: number, price: string, side: string, id: number) => ({
  recvTs: T0 + dt + 1,
  source: 'market-data' as const,
  msg: {
    arg: { channel: 'TRADE', sym: BTC },
    data: { tradeId: String(id), price, qty: '1', side, ts: T0 + dt },
  },
});

/** A flat market at 100000 with one trade at 98999.9 5 ms after the first quote, then flat again. */
async function dipRecordingIn(dir: string): Promise<string> {
  const path = join(dir, 'dip.jsonl.gz');
  await writeRecording(path, [
    quoteRecordAt(1, '99999.9', '100000.0'),
    trade(5, '98999.9', 'SELL', 1),
    quoteRecordAt(101, '99999.9', '100000.0'),
    trade(150, '99999.9', 'SELL', 2),
    ...Array.from({ length: 8 }, (_, k) => [
      quoteRecordAt(301 + k * 500, '99999.9', '100000.0'),
      trade(305 + k * 500, '100000.0', k % 2 === 0 ? 'BUY' : 'SELL', 3 + k),
    ]).flat(),
  ]);
  return path;
}

type Result = {
  fills: { clientOrderId: string; side: string; quantity: string; price: string; timestamp: number }[];
  orders: { clientOrderId: string; createAt: number }[];
  algoOrders: { clientAlgoOrderId: string; createAt: number }[];
};

/** A paper run tags its references (`rf-tpab12cd-ENTRY`), its backtest does not. */
const untagged = (ref: string) => ref.replace(/-tp[a-z0-9]{6}-/, '-');
const fillsOf = (r: Result) =>
  r.fills.map(
    (f) => `${untagged(f.clientOrderId)} ${f.side} ${f.quantity} @ ${f.price} T0+${f.timestamp - T0}ms`,
  );
const createTimesOf = (r: Result) =>
  [
    ...r.orders.map((o) => `${untagged(o.clientOrderId)} T0+${o.createAt - T0}ms`),
    ...r.algoOrders.map((a) => `${untagged(a.clientAlgoOrderId)} T0+${a.createAt - T0}ms`),
  ].sort();

describe('a lockstep paper run whose strategy reacts to a fill before the market moves', () => {
  it.each([
    ['no latency', undefined],
    ['an order-entry latency of 2 ms', '{ fixedMs: 2, jitterMs: 0 }'],
  ])(
    'places the reaction before the next event, as the backtest does (%s)',
    async (_name, latency) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'react.ts'), STRATEGY_TS);
      const { paper, backtest } = await paperAndBacktestResults<Result>(
        dir,
        `instruments: [${BTC}]\nstrategies:\n  - { id: rf, use: ./react.ts }\n`,
        await dipRecordingIn(dir),
        latency,
      );
      // The entry, then the dip fills the BUY limit and fires the stop.
      expect(fillsOf(backtest)).toHaveLength(3);
      // Before: the reaction reached the venue after the dip (2 fills, created at T0+6 ms or later).
      expect(fillsOf(paper)).toEqual(fillsOf(backtest));
      expect(createTimesOf(paper)).toEqual(createTimesOf(backtest));
    },
    120_000,
  );
});
