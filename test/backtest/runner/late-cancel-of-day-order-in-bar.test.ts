import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { importOhlcvCsv } from '../../../backtest/csv/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D, type Order } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const AAPL = 'US_EQUITY_AAPL';
const aTempDir = tempDirsRemovedAfterAll('keel-late-cancel-');

/** DAY limit BUY at 189.5 (Wednesday's bar trades down to 189); a 17:00 NY timer cancels it. */
function lateCanceller(log: string[]) {
  return defineStrategy({
    name: 'late-canceller',
    params: z.object({}),
    state: () => ({ placed: false }),
    onStart: (ctx) => ctx.watchBars(AAPL, '1d'),
    onBar: (ctx) => {
      if (ctx.state.placed) return undefined;
      ctx.state.placed = true;
      ctx.setTimerAt(Date.parse('2026-03-04T22:00:00Z'), 'cancel'); // Wednesday 17:00 EST
      return ctx.order.limit({
        sym: AAPL,
        side: 'BUY',
        qty: 10,
        price: 189.5,
        ref: 'day',
        timeInForce: 'DAY',
      });
    },
    onTimer: (ctx) => ctx.order.cancel('day'),
    onDenied: (_ctx, d) => {
      log.push(`denied ${d.ref} ${d.check} ${d.reason}`);
    },
    onOrder: (_ctx, order: Order) => {
      log.push(`${new Date(order.updateAt).toISOString()} ${order.orderState} ${order.action ?? ''}`);
    },
  });
}

describe('a cancel reaching a DAY order after its end, while the bar spanning it is still to come', () => {
  it('is refused without saying the order expired, and the bar then fills it', async () => {
    const dir = aTempDir();
    const csv = [
      'Date,Open,High,Low,Close,Volume',
      '2026-03-03,190,192,188,191,1000000',
      '2026-03-04,191,193,189,192,1000000',
      '2026-03-05,192,194,190,193,1000000',
    ].join('\n');
    await writeFile(join(dir, 'aapl.csv'), `${csv}\n`);
    await importOhlcvCsv({
      input: join(dir, 'aapl.csv'),
      output: join(dir, 'aapl.jsonl'),
      sym: AAPL,
      zone: 'America/New_York',
    });
    const log: string[] = [];
    const result = await runBacktest({
      recordings: [join(dir, 'aapl.jsonl')],
      decode: decodeMarketRecord,
      instruments: [
        anInstrument(AAPL, { tickSize: D('0.01'), lotSize: D('1'), minSize: D('1'), settleAsset: 'USD' }),
      ],
      strategies: [{ id: 's', strategy: lateCanceller(log) }],
      gate: new RiskGate(),
      startingCash: D(100_000),
      closeAtEnd: false,
    });
    const orders = [...result.orders].map(
      (o) => `${o.clientOrderId} ${o.orderState} ${o.action} ${new Date(o.updateAt).toISOString()}`,
    );
    const fills = [...result.fills].map(
      (f) =>
        `${f.side} ${f.quantity.toFixed()} @ ${f.price.toFixed()} ${new Date(f.timestamp).toISOString()}`,
    );
    result.dispose?.();
    expect(log).toEqual([
      '2026-03-04T05:00:00.018Z NEW PLACE',
      '2026-03-04T05:00:00.018Z OPEN PLACE',
      'denied s-1 venue.401058 the venue refused cancelOrder s-1: 401058 the order is already final: ' +
        'order day reached its DAY end at 2026-03-04T21:00:00.000Z: it filled before then or expired, as ' +
        'its next update says (on bars, once the bar spanning that time is matched) (code 401058); its ' +
        'orders are looked up',
      '2026-03-05T05:00:00.000Z FILLED FILL',
    ]);
    expect(orders).toEqual(['day FILLED FILL 2026-03-05T05:00:00.000Z']);
    expect(fills).toEqual(['BUY 10 @ 189.5 2026-03-05T05:00:00.000Z']);
  });
});
