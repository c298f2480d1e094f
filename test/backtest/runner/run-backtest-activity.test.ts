import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type BacktestResult,
  KEEL_OWNER,
  readResult,
  resultToJson,
  writeResultFiles,
} from '../../../backtest/report/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy, type StrategySlot } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDir } from '../../kit/recording-files.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 0, 6);

/**
 * On its first bar: buys 1 with a take-profit at 110 and a stop-loss at 90, places a far stop and
 * a trigger it will cancel, and sends an order the risk gate denies (over maxMarketSize). On its
 * second: cancels the one trigger, moves the far stop and tries to cancel an algo order it never
 * placed (the kernel denies it). On its fifth: buys 0.5, left for the end-of-run close.
 */
const bracketer = defineStrategy<Record<string, never>, { bars: number }>({
  name: 'bracketer',
  params: z.object({}).strict(),
  state: () => ({ bars: 0 }),
  onStart: (ctx) => ctx.watchBars(SYM, '1m'),
  onBar: (ctx) => {
    ctx.state.bars += 1;
    if (ctx.state.bars === 1)
      return [
        ctx.order.market({
          sym: SYM,
          side: 'BUY',
          qty: D(1),
          ref: 'entry',
          tp: { triggerPrice: 110 },
          sl: { triggerPrice: 90 },
        }),
        ctx.order.algo({
          sym: SYM,
          side: 'SELL',
          qty: 1,
          triggerPrice: 50,
          condition: 'LTE',
          reduceOnly: true,
          ref: 'far-stop',
        }),
        ctx.order.algo({
          sym: SYM,
          side: 'SELL',
          qty: 1,
          triggerPrice: 200,
          condition: 'GTE',
          reduceOnly: true,
          ref: 'to-cancel',
        }),
        ctx.order.market({ sym: SYM, side: 'BUY', qty: D(1000), ref: 'huge' }),
      ];
    if (ctx.state.bars === 2)
      return [
        ctx.order.cancelAlgo('to-cancel'),
        ctx.order.replaceAlgo('far-stop', { triggerPrice: 60, ref: 'move-stop' }),
        { kind: 'cancelAlgoOrder', ref: 'not-mine', target: 'nobodys-algo', sym: SYM },
      ];
    if (ctx.state.bars === 5) return ctx.order.market({ sym: SYM, side: 'BUY', qty: D('0.5'), ref: 'late' });
    return undefined;
  },
});

const temp = tempDir();
afterAll(() => temp.remove());
const results: BacktestResult[] = [];
afterEach(() => {
  for (const r of results.splice(0)) r.dispose?.();
});

async function run(): Promise<BacktestResult> {
  // Bar 4 reaches 112: the take-profit fires, the stop-loss is cancelled with it.
  const rows = [
    [100, 101, 99, 100],
    [100, 101, 99, 100],
    [100, 101, 99, 100],
    [100, 112, 99, 111],
    [111, 112, 110, 111],
    [111, 112, 110, 111],
    [111, 112, 110, 111],
  ];
  const recording = await barsRecordingIn(temp.dir, rows, T0, SYM);
  const slots: StrategySlot[] = [{ id: 'b', strategy: bracketer, params: {} }];
  const result = await runBacktest({
    ...barRunOptions(recording, [anInstrument(SYM)], slots),
    gate: new RiskGate(),
    closeAtEnd: true,
  });
  results.push(result);
  return result;
}

describe('backtest outputs: algo orders, denials and strategy ids', () => {
  it('lists every algo order, attached legs included, with its trigger, steps and the order it sent', async () => {
    const result = await run();
    const algos = [...(result.algoOrders ?? [])];
    const byRef = new Map(algos.map((a) => [a.clientAlgoOrderId, a]));
    const entry = [...result.orders].find((o) => o.clientOrderId === 'entry');
    const tp = byRef.get('entry-tp');
    const sl = byRef.get('entry-sl');
    expect(tp).toMatchObject({
      algoOrderType: 'TP_SL',
      conditionType: 'GTE',
      state: 'TRIGGERED',
      strategyId: 'b',
    });
    expect(tp?.attachedOrderId).toBe(entry?.orderId);
    expect(tp?.triggerPrice.toFixed()).toBe('110');
    const sent = [...result.orders].find((o) => o.orderId === tp?.orderId);
    expect(sent).toMatchObject({ side: 'SELL', orderState: 'FILLED', strategyId: 'b' });
    expect(tp?.steps.map((s) => s.state)).toEqual(['NEW', 'TRIGGERED']);
    expect(sl).toMatchObject({ algoOrderType: 'TP_SL', conditionType: 'LTE', state: 'CANCELLED' });
    expect(sl?.orderId).toBeUndefined();
    expect(byRef.get('to-cancel')).toMatchObject({
      algoOrderType: 'TRIGGER',
      state: 'CANCELLED',
      strategyId: 'b',
    });
    const far = byRef.get('far-stop');
    expect(far?.steps.map((s) => [s.state, s.triggerPrice.toFixed()])).toEqual([
      ['NEW', '50'],
      ['NEW', '60'],
      ['CANCELLED', '60'],
    ]);
    expect(algos.map((a) => a.createAt)).toEqual([...algos.map((a) => a.createAt)].sort((a, b) => a - b));
  });

  it('lists the intents the risk gate and the kernel denied, with strategy, check and sym', async () => {
    const result = await run();
    const denials = [...(result.denials ?? [])];
    expect(denials).toHaveLength(2);
    expect(denials[0]).toMatchObject({
      strategyId: 'b',
      source: 'risk',
      check: 'maxSize',
      intentKind: 'placeOrder',
      ref: 'huge',
      sym: SYM,
    });
    expect(denials[1]).toMatchObject({
      strategyId: 'b',
      source: 'kernel',
      check: 'kernel.ownership',
      intentKind: 'cancelAlgoOrder',
      ref: 'not-mine',
    });
    expect(denials[1]?.reason).toMatch(/nobodys-algo/);
    expect(denials[0]?.ts).toBeLessThanOrEqual(denials[1]?.ts ?? 0);
  });

  it("names each order's, fill's and trade's strategy; the end-of-run close is keel's", async () => {
    const result = await run();
    const owners = new Map([...result.orders].map((o) => [o.clientOrderId, o.strategyId]));
    expect(owners.get('entry')).toBe('b');
    expect(owners.get('late')).toBe('b');
    const closes = [...result.orders].filter((o) => o.clientOrderId.startsWith('bt-end'));
    expect(closes.length).toBeGreaterThan(0);
    for (const close of closes) expect(close.strategyId).toBe(KEEL_OWNER);
    for (const fill of result.fills)
      expect(fill.strategyId).toBe(fill.clientOrderId.startsWith('bt-end') ? KEEL_OWNER : 'b');
    const trades = [...result.trades];
    expect(trades.map((t) => [t.entryStrategyId, t.exitStrategyId])).toEqual([
      ['b', 'b'],
      ['b', KEEL_OWNER],
    ]);
  });

  it('writes algo-orders.csv and denials.csv, strategy columns in the others, and reads its result back', async () => {
    const result = await run();
    const out = join(temp.dir, 'out');
    const paths = await writeResultFiles(result, out);
    const algoCsv = (await readFile(paths.algoOrders, 'utf8')).trim().split('\n');
    expect(algoCsv[0]).toBe(
      'createTime,updateTime,algoOrderId,clientAlgoOrderId,strategyId,sym,side,algoOrderType,conditionType,triggerType,triggerPrice,price,qty,reduceOnly,positionSide,state,attachedOrderId,orderId,lifecycle',
    );
    expect(algoCsv).toHaveLength(5);
    expect(algoCsv.find((line) => line.includes(',far-stop,'))).toMatch(
      /NEW 2025-01-06T\d\d:\d\d:\d\d\.\d{3}Z @50; NEW \S+ @60; CANCELLED \S+$/,
    );
    const denialCsv = (await readFile(paths.denials, 'utf8')).trim().split('\n');
    expect(denialCsv[0]).toBe('time,ts,strategyId,source,check,intentKind,ref,sym,reason');
    expect(denialCsv[1]).toMatch(/,b,risk,maxSize,placeOrder,huge,BINANCE_PERP_BTC_USDT,/);
    expect((await readFile(paths.fills, 'utf8')).split('\n')[0]).toMatch(/,execType,strategyId$/);
    expect((await readFile(paths.orders, 'utf8')).split('\n')[0]).toMatch(
      /,reason,strategyId,conditionCode,triggerPrice,stopPrice,timeToSend,actionMsg$/,
    );
    expect((await readFile(paths.trades, 'utf8')).split('\n')[1]).toMatch(/,b,b$/);
    const json = await readFile(paths.json, 'utf8');
    expect(json).toBe(resultToJson(result));
    for (const streamAboveBytes of [Number.POSITIVE_INFINITY, 0]) {
      const back = await readResult(paths.json, { streamAboveBytes });
      try {
        expect(back.algoOrders?.length).toBe(4);
        expect(back.denials?.length).toBe(2);
        expect(resultToJson(back)).toBe(json);
      } finally {
        back.dispose?.();
      }
    }
  });
});
