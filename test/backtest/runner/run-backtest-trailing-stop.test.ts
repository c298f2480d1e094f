import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import {
  renderHtmlReport,
  resultFromJson,
  resultToJson,
  trailingStopsCsvLines,
} from '../../../backtest/report/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { barsRecordingIn, flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { decodeQuotesAndTrades } from '../../kit/quote-trade-decoder.ts';
import { quoteRecordAt, TEST_HEADER, tempDir, writeRecording } from '../../kit/recording-files.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = TEST_HEADER.startTime;

function tradeRecordAt(dt: number, price: string): RecordedMessage {
  const ts = T0 + dt;
  return {
    recvTs: ts,
    source: 'market-data',
    msg: {
      arg: { channel: 'TRADE', sym: SYM },
      data: { tradeId: `t${dt}`, price, qty: '0.01', side: 'BUY', ts },
    },
  };
}

/**
 * On the first quote: buys 1 at market and places SELL trailing stops 5 ticks under the highest
 * trade, of the given sizes and references.
 */
function buyAndTrail(name: string, stops: readonly { readonly qty: number; readonly ref: string }[]) {
  return defineStrategy<Record<string, never>, { placed: boolean }>({
    name,
    params: z.object({}).strict(),
    state: () => ({ placed: false }),
    onQuote: (ctx) => {
      if (ctx.state.placed) return undefined;
      ctx.state.placed = true;
      return [
        ctx.order.market({ sym: SYM, side: 'BUY', qty: 1 }),
        ...stops.map(({ qty, ref }) =>
          ctx.order.trailingStop({ sym: SYM, side: 'SELL', qty, offset: { ticks: 5 }, ref }),
        ),
      ];
    },
  });
}

/** Buys 1 and protects it with a SELL trailing stop of 1. */
const trailer = buyAndTrail('trailer', [{ qty: 1, ref: 'trail-1' }]);

describe('backtest runner: an emulated trailing stop', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());

  it('trails the trades, sells at market when the last price falls to the stop, and lists the stop in the result', async () => {
    const path = join(temp.dir, 'trail.jsonl');
    await writeRecording(path, [
      quoteRecordAt(0, '100', '100.1'), // buy 1 at 100.1 (arrives T0+10)
      tradeRecordAt(1000, '101'), // active: stop 100.5
      quoteRecordAt(1500, '101.9', '102'),
      tradeRecordAt(2000, '102'), // stop 101.5
      tradeRecordAt(3000, '101.6'),
      quoteRecordAt(3500, '101.5', '101.6'),
      tradeRecordAt(4000, '101.5'), // crosses: MARKET SELL sent at T0+4000, arrives T0+4010
      quoteRecordAt(5000, '90', '90.1'),
    ]);
    const options = {
      recordings: [path],
      decode: decodeQuotesAndTrades,
      instruments: [anInstrument(SYM)],
      strategies: [{ id: 'tr', strategy: trailer, params: {} }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      closeAtEnd: false,
      latency: { orderEntry: { fixedMs: 10, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    };
    const result = await runBacktest(options);
    const fills = [...result.fills].map(
      (f) =>
        `T0+${f.timestamp - T0} ${f.clientOrderId} ${f.side} ${f.quantity.toFixed()} @ ${f.price.toFixed()}`,
    );
    expect(fills).toEqual(['T0+10 tr-1 BUY 1 @ 100.1', 'T0+4010 trail-1 SELL 1 @ 101.5']);
    const stops = result.trailingStops ?? [];
    expect(stops).toHaveLength(1);
    const stop = stops[0];
    expect(stop).toMatchObject({ ref: 'trail-1', strategyId: 'tr', status: 'TRIGGERED', crossPrice: 101.5 });
    expect(stop?.stopPrice?.toFixed()).toBe('101.5');
    expect(stop?.steps.map((s) => `T0+${s.ts - T0} ${s.status} ${s.stopPrice?.toFixed() ?? '-'}`)).toEqual([
      'T0+0 PENDING -',
      'T0+1000 ACTIVE 100.5',
      'T0+4000 TRIGGERED 101.5',
    ]);
    // Its order is in the orders, under the stop's reference.
    expect([...result.orders].find((o) => o.clientOrderId === 'trail-1')).toMatchObject({
      orderType: 'MARKET',
      orderState: 'FILLED',
      strategyId: 'tr',
    });
    const csv = [...trailingStopsCsvLines(result)].join('');
    expect(csv).toMatch(/^createTime,updateTime,clientOrderId,strategyId,sym,side,qty/);
    expect(csv).toContain(
      ',trail-1,tr,BINANCE_PERP_BTC_USDT,SELL,1,true,NONE,TICKS,5,,last,TRIGGERED,101.5,102,101.5,',
    );
    const html = renderHtmlReport(result);
    const section = /<section id="trailing-stops">.*?<\/section>/s.exec(html)?.[0] ?? '';
    expect(section).toContain('<td>trail-1</td><td>tr</td>');
    expect(section).toContain('<td>5 ticks on last</td>');
    expect(section).toMatch(
      /<td>TRIGGERED<\/td><td>PENDING [^<]+<br>ACTIVE [^<]+ @100\.5<br>TRIGGERED [^<]+ @101\.5<\/td>/,
    );
    // The result file keeps it, and reads back the same.
    const text = resultToJson(result);
    expect(resultToJson(resultFromJson(text))).toBe(text);
    // Deterministic: the same run gives the same bytes.
    // A gate serves one run.
    const again = await runBacktest({ ...options, gate: new RiskGate() });
    expect(resultToJson(again)).toBe(text);
    again.dispose?.();
    result.dispose?.();
  });

  it('a reduce-only stop sized for the whole long still closes what a partial exit left of it', async () => {
    // Long 1 with a SELL stop for 1; a reduce-only sell of 0.4 takes profit first. When the stop
    // triggers, its MARKET order sells the 0.6 left instead of being denied as larger than it.
    const partialExit = defineStrategy<Record<string, never>, { step: number }>({
      name: 'partial-exit',
      params: z.object({}).strict(),
      state: () => ({ step: 0 }),
      onQuote: (ctx) => {
        if (ctx.state.step !== 0) return undefined;
        ctx.state.step = 1;
        return [
          ctx.order.market({ sym: SYM, side: 'BUY', qty: 1 }),
          ctx.order.trailingStop({ sym: SYM, side: 'SELL', qty: 1, offset: { ticks: 5 }, ref: 'trail-1' }),
        ];
      },
      onTrade: (ctx) => {
        if (ctx.state.step !== 1) return undefined;
        ctx.state.step = 2;
        return ctx.order.market({ sym: SYM, side: 'SELL', qty: 0.4, reduceOnly: true, ref: 'part-1' });
      },
    });
    const path = join(temp.dir, 'partial-exit.jsonl');
    await writeRecording(path, [
      quoteRecordAt(0, '100', '100.1'), // buy 1 at 100.1
      tradeRecordAt(1000, '101'), // active: stop 100.5; sell 0.4 at the bid
      quoteRecordAt(1500, '101.9', '102'),
      tradeRecordAt(2000, '102'), // stop 101.5
      quoteRecordAt(3500, '101.5', '101.6'),
      tradeRecordAt(4000, '101.5'), // crosses: the stop's MARKET SELL goes out
      quoteRecordAt(5000, '90', '90.1'),
    ]);
    const result = await runBacktest({
      recordings: [path],
      decode: decodeQuotesAndTrades,
      instruments: [anInstrument(SYM)],
      strategies: [{ id: 'px', strategy: partialExit, params: {} }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      closeAtEnd: false,
      latency: { orderEntry: { fixedMs: 10, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    });
    expect([...(result.denials ?? [])].map((d) => `${d.check}: ${d.reason}`)).toEqual([]);
    const fills = [...result.fills].map((f) => `${f.clientOrderId} ${f.side} ${f.quantity.toFixed()}`);
    expect(fills).toEqual(['px-1 BUY 1', 'part-1 SELL 0.4', 'trail-1 SELL 0.6']);
    expect([...result.orders].find((o) => o.clientOrderId === 'trail-1')).toMatchObject({
      orderType: 'MARKET',
      orderState: 'FILLED',
      reduceOnly: true,
    });
    expect(result.trailingStops?.map((s) => `${s.ref} ${s.status} ${s.qty.toFixed()}`)).toEqual([
      'trail-1 TRIGGERED 1',
    ]);
    result.dispose?.();
  });

  it('denies a stop whose MARKET order is over maxNotionalPerOrder when it is placed, and holds only the one within it', async () => {
    // A SELL stop of 6 (some 600 at 100) is over the 500 limit: denied at once, never held nor
    // listed. The SELL stop of 1 is held and protects the long as before.
    const sizes = buyAndTrail('sizes', [
      { qty: 6, ref: 'big-1' },
      { qty: 1, ref: 'trail-1' },
    ]);
    const path = join(temp.dir, 'over-notional.jsonl');
    await writeRecording(path, [
      quoteRecordAt(0, '100', '100.1'),
      tradeRecordAt(1000, '101'), // active: stop 100.5
      tradeRecordAt(2000, '100.4'), // crosses: the stop's MARKET SELL goes out
      quoteRecordAt(3000, '100.3', '100.4'),
    ]);
    const result = await runBacktest({
      recordings: [path],
      decode: decodeQuotesAndTrades,
      instruments: [anInstrument(SYM)],
      strategies: [{ id: 'sz', strategy: sizes, params: {} }],
      gate: new RiskGate({ limits: { maxNotionalPerOrder: 500 } }),
      startingCash: D(10_000),
      closeAtEnd: false,
      latency: { orderEntry: { fixedMs: 10, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    });
    expect([...(result.denials ?? [])].map((d) => `T0+${d.ts - T0} ${d.source} ${d.check} ${d.ref}`)).toEqual(
      ['T0+0 risk maxNotional big-1'],
    );
    expect([...(result.denials ?? [])][0]?.reason).toMatch(
      /^placeOrder big-1: notional [\d.]+ is over the portfolio's maxNotionalPerOrder 500$/,
    );
    expect(result.trailingStops?.map((s) => `${s.ref} ${s.status}`)).toEqual(['trail-1 TRIGGERED']);
    const fills = [...result.fills].map((f) => `${f.clientOrderId} ${f.side} ${f.quantity.toFixed()}`);
    expect(fills).toEqual(['sz-1 BUY 1', 'trail-1 SELL 1']);
    expect([...result.orders].map((o) => o.clientOrderId)).not.toContain('big-1');
    result.dispose?.();
  });

  /**
   * Backtests a SELL trailing stop 2.0 under the highest price, placed in onStart, on a recording
   * of these bars (open, high, low, close), orders reaching the venue 10 ms after they are sent.
   */
  async function sellTrailOnBars(name: string, bars: readonly (readonly [number, number, number, number])[]) {
    const dir = join(temp.dir, name);
    await mkdir(dir);
    const path = await barsRecordingIn(dir, bars, T0, SYM);
    const onBars = defineStrategy({
      name: 'bar-trailer',
      params: z.object({}).strict(),
      onStart: (ctx) =>
        ctx.order.trailingStop({
          sym: SYM,
          side: 'SELL',
          qty: 1,
          offset: { price: 2 },
          reduceOnly: false,
          ref: 'bt-1',
        }),
    });
    const result = await runBacktest({
      ...barRunOptions(path, [anInstrument(SYM)], [{ id: 'b', strategy: onBars, params: {} }]),
      latency: { orderEntry: { fixedMs: 10, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    });
    const stop = result.trailingStops?.[0];
    const steps = stop?.steps.map(
      (s) => `T0+${(s.ts - T0) / 60_000}m ${s.status} ${s.stopPrice?.toFixed() ?? '-'}`,
    );
    return { result, stop, steps };
  }

  it('on a bar-only recording trails the closed bars, favourable extreme first, and its order fills at the next bar open', async () => {
    // SELL stop 2.0 under the highest price, walked open, high, low, close. Placed in onStart, at
    // bar 0's close: it sits bar 0 out (its prices came before the stop existed) and, with no
    // price before, stays PENDING until bar 1: 101.5 (active, stop 99.5), 103 (stop 101), 101.5, 102;
    // bar 2: 102, 102.5, 100.5 <= 101: triggered at bar 2's close; its MARKET order fills at bar 3's open, 100.
    const { result, stop, steps } = await sellTrailOnBars('bars', [
      [100, 101, 99.5, 100],
      [101.5, 103, 101.5, 102],
      [102, 102.5, 100.5, 101],
      [100, 100, 99, 99.5],
    ]);
    // The run starts when bar 0 closes (a bar is recorded at its close), with onStart.
    expect(steps).toEqual(['T0+1m PENDING -', 'T0+2m ACTIVE 99.5', 'T0+3m TRIGGERED 101']);
    expect(stop?.crossPrice).toBe(100.5);
    const fills = [...result.fills].map(
      (f) => `T0+${f.timestamp - T0}ms ${f.clientOrderId} ${f.side} @ ${f.price.toFixed()}`,
    );
    // Sent at bar 2's close (T0+3m), at the venue 10 ms later: bar 3's open.
    expect(fills).toEqual(['T0+180010ms bt-1 SELL @ 100']);
    expect(result.meta.warnings ?? []).toEqual([]);
    result.dispose?.();
  });

  it('triggers a SELL stop 2 under the high when the bar rose 10 and fell 11 (either order of the extremes)', async () => {
    // bar 0: flat 100 (the stop is placed in onStart, at its close: it sits bar 0 out).
    // bar 1: open 100 (active, stop 98), high 110, low 99, close 109.
    //   Walked open, low, high, close (Keel's old walk): 99 > 98, 110 -> stop 108, close 109 > 108: no trigger.
    //   Walked open, high, low, close (Keel's walk now): 110 -> stop 108, then 99 <= 108: triggered.
    //   The bar cannot say which came first; only the second order is the adverse one for a
    //   trailing stop (its level moves with the favourable extreme), and it is the one live
    //   trading would have met whenever the high came before the low.
    const { result, steps } = await sellTrailOnBars('rise-and-fall', [
      [100, 100, 100, 100],
      [100, 110, 99, 109],
      [109, 109, 109, 109],
    ]);
    result.dispose?.();
    expect(steps?.at(-1)).toBe('T0+2m TRIGGERED 108');
  });

  it('warns when a stop never started trailing because the data had no price of its source (mark prices on a bar recording)', async () => {
    const dir = join(temp.dir, 'marks');
    await mkdir(dir);
    const path = await flatBarsRecordingIn(dir, 3, T0, SYM);
    const onBars = defineStrategy({
      name: 'mark-trailer',
      params: z.object({}).strict(),
      onStart: (ctx) =>
        ctx.order.trailingStop({
          sym: SYM,
          side: 'SELL',
          qty: 1,
          offset: { ticks: 5 },
          triggerOn: 'mark',
          ref: 'bt-1',
        }),
    });
    const result = await runBacktest(
      barRunOptions(path, [anInstrument(SYM)], [{ id: 'b', strategy: onBars, params: {} }]),
    );
    expect(result.meta.warnings).toContain(
      `strategy b's trailing stop bt-1 on ${SYM} never started trailing: it trails mark prices (triggerOn: mark) and the recordings held none for that sym`,
    );
    // The run's end cancels it, as it ends any stop still open.
    expect(result.trailingStops?.map((s) => `${s.status} ${s.cancelReason}`)).toEqual(['CANCELLED runEnded']);
    result.dispose?.();
  });
});
