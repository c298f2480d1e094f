import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { importOhlcvCsv } from '../../../backtest/csv/index.ts';
import type { BacktestResult } from '../../../backtest/report/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D, type Order } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const AAPL = 'US_EQUITY_AAPL';
const aTempDir = tempDirsRemovedAfterAll('keel-day-expiry-');

/**
 * On Tuesday's bar (received Wednesday 00:00 New York) places a DAY limit BUY at `price`, which
 * the venue ends at Wednesday 16:00 New York; at Wednesday 17:00 New York (a strategy timer,
 * inside Wednesday's bar) it modifies or cancels the order. Notes its order updates and denials.
 */
function lateCommander(log: string[], price: number, command: 'modify' | 'cancel') {
  return defineStrategy({
    name: 'late-commander',
    params: z.object({}),
    state: () => ({ placed: false }),
    onStart: (ctx) => ctx.watchBars(AAPL, '1d'),
    onBar: (ctx) => {
      if (ctx.state.placed) return undefined;
      ctx.state.placed = true;
      ctx.setTimerAt(Date.parse('2026-03-04T22:00:00Z'), command); // Wednesday 17:00 EST
      return ctx.order.limit({ sym: AAPL, side: 'BUY', qty: 10, price, ref: 'day', timeInForce: 'DAY' });
    },
    onTimer: (ctx) =>
      command === 'modify'
        ? ctx.order.modify('day', { price: price + 1, ref: 'amend' })
        : ctx.order.cancel('day'),
    onDenied: (_ctx, d) => {
      log.push(`denied ${d.ref} ${d.check} ${d.reason}`);
    },
    onOrder: (_ctx, order: Order) => {
      log.push(
        `${new Date(order.updateAt).toISOString()} ${order.orderState} ${order.action ?? ''} ${order.limitPrice?.toFixed() ?? ''}`,
      );
    },
  });
}

/** Daily AAPL bars of 3-6 March 2026 (Wednesday's low 189), New York zone, run with `strategy`. */
async function runOnDailyBars(strategy: ReturnType<typeof lateCommander>): Promise<BacktestResult> {
  const dir = aTempDir();
  const csv = [
    'Date,Open,High,Low,Close,Volume',
    '2026-03-03,190,192,188,191,1000000',
    '2026-03-04,191,193,189,192,1000000',
    '2026-03-05,192,194,190,193,1000000',
    '2026-03-06,193,195,191,194,1000000',
  ].join('\n');
  await writeFile(join(dir, 'aapl.csv'), `${csv}\n`);
  await importOhlcvCsv({
    input: join(dir, 'aapl.csv'),
    output: join(dir, 'aapl.jsonl'),
    sym: AAPL,
    zone: 'America/New_York',
  });
  return runBacktest({
    recordings: [join(dir, 'aapl.jsonl')],
    decode: decodeMarketRecord,
    instruments: [
      anInstrument(AAPL, { tickSize: D('0.01'), lotSize: D('1'), minSize: D('1'), settleAsset: 'USD' }),
    ],
    strategies: [{ id: 's', strategy }],
    gate: new RiskGate(),
    startingCash: D(100_000),
    closeAtEnd: false,
  });
}

function ordersOf(result: BacktestResult): string[] {
  return [...result.orders].map(
    (o) => `${o.clientOrderId} ${o.orderState} ${o.action} ${new Date(o.updateAt).toISOString()}`,
  );
}

describe('a DAY order whose expiry falls inside a daily bar (backtest)', () => {
  it('is expired by the venue before a modify that arrives after its 16:00 close', async () => {
    const result = await runOnDailyBars(lateCommander([], 150, 'modify'));
    const orders = ordersOf(result);
    result.dispose?.();
    // The venue ended the order at Wednesday 16:00 New York (21:00Z); the modify arriving at 17:00
    // must find it final (CANCELLED by EXPIRE at 21:00Z), not amend it.
    expect(orders).toEqual(['day CANCELLED EXPIRE 2026-03-04T21:00:00.000Z']);
  });

  it('refuses a cancel arriving after its end without saying it expired, and the bar then fills it', async () => {
    const log: string[] = [];
    const result = await runOnDailyBars(lateCommander(log, 189.5, 'cancel'));
    const orders = ordersOf(result);
    const fills = [...result.fills].map(
      (f) =>
        `${f.side} ${f.quantity.toFixed()} @ ${f.price.toFixed()} ${new Date(f.timestamp).toISOString()}`,
    );
    result.dispose?.();
    expect(log).toEqual([
      '2026-03-04T05:00:00.018Z NEW PLACE 189.5',
      '2026-03-04T05:00:00.018Z OPEN PLACE 189.5',
      'denied s-1 venue.401058 the venue refused cancelOrder s-1: 401058 the order is already final: ' +
        'order day reached its DAY end at 2026-03-04T21:00:00.000Z: it filled before then or expired, as ' +
        'its next update says (on bars, once the bar spanning that time is matched) (code 401058); its ' +
        'orders are looked up',
      '2026-03-05T05:00:00.000Z FILLED FILL 189.5',
    ]);
    expect(orders).toEqual(['day FILLED FILL 2026-03-05T05:00:00.000Z']);
    expect(fills).toEqual(['BUY 10 @ 189.5 2026-03-05T05:00:00.000Z']);
  });
});
