import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resultToJson } from '../../../backtest/report/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { barsRecordingIn, decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-order-states-');

const FOUR_BARS = [
  [100, 101, 99, 100],
  [100, 102, 99, 101],
  [101, 103, 100, 102],
  [102, 106, 101, 105],
];

describe('backtest runner: the order states a strategy and the result see', () => {
  let recording = '';
  beforeAll(async () => {
    recording = await barsRecordingIn(aTempDir(), FOUR_BARS, T0, BTC);
  });

  it('shows a strategy its resting limit NEW then OPEN (onOrder, openOrders), a market order never OPEN, and keeps the resting one OPEN in the result', async () => {
    const updates: string[] = [];
    const openAtBar: string[][] = [];
    const rester = defineStrategy({
      name: 'rester',
      params: z.object({}),
      state: () => ({ bars: 0 }),
      onStart: (ctx) => ctx.watchBars(BTC, '1m'),
      onBar: (ctx) => {
        const index = ctx.state.bars++;
        openAtBar.push(ctx.openOrders().map((o) => `${o.orderType} ${o.orderState}`));
        if (index === 0) return ctx.order.limit({ sym: BTC, side: 'BUY', qty: '1', price: '50' });
        if (index === 1) return ctx.order.market({ sym: BTC, side: 'BUY', qty: '1' });
        return undefined;
      },
      onOrder: (_ctx, order) => {
        updates.push(`${order.orderType} ${order.orderState}`);
      },
    });
    const result = await runBacktest({
      recordings: [recording],
      decode: decodeMarketRecord,
      instruments: [anInstrument(BTC)],
      strategies: [{ id: 'r', strategy: rester }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      closeAtEnd: false,
    });
    expect(updates).toEqual(['LIMIT NEW', 'LIMIT OPEN', 'MARKET NEW', 'MARKET FILLED']);
    // the market order placed after bar 1 fills at bar 2's open, before the strategy sees bar 2
    expect(openAtBar).toEqual([[], ['LIMIT OPEN'], ['LIMIT OPEN'], ['LIMIT OPEN']]);
    expect([...result.orders].map((o) => `${o.orderType} ${o.orderState}`)).toEqual([
      'LIMIT OPEN',
      'MARKET FILLED',
    ]);
    expect(resultToJson(result)).toContain('"orderState":"OPEN"');
  });

  it('runs a strategy written against the live venue that waits for OPEN: it cancels its limit once told it rests', async () => {
    const waitsForOpen = defineStrategy({
      name: 'waits-for-open',
      params: z.object({}),
      state: () => ({ placed: false }),
      onStart: (ctx) => ctx.watchBars(BTC, '1m'),
      onBar: (ctx) => {
        if (ctx.state.placed) return undefined;
        ctx.state.placed = true;
        return ctx.order.limit({ sym: BTC, side: 'BUY', qty: '1', price: '50' });
      },
      onOrder: (ctx, order) =>
        order.orderState === 'OPEN' ? ctx.order.cancel(order.clientOrderId) : undefined,
    });
    const result = await runBacktest({
      recordings: [recording],
      decode: decodeMarketRecord,
      instruments: [anInstrument(BTC)],
      strategies: [{ id: 'w', strategy: waitsForOpen }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      closeAtEnd: false,
    });
    expect([...result.orders].map((o) => [o.orderType, o.orderState, o.cancelType])).toEqual([
      ['LIMIT', 'CANCELLED', 'USER'],
    ]);
  });
});
