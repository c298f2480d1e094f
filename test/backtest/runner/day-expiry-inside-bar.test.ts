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
const aTempDir = tempDirsRemovedAfterAll('keel-day-expiry-');

/**
 * On Tuesday's bar (received Wednesday 00:00 New York) places a DAY limit far below the market,
 * which the venue ends at Wednesday 16:00 New York; at Wednesday 17:00 New York (a strategy timer,
 * inside Wednesday's bar) it modifies the order.
 */
function lateModifier(updates: string[]) {
  return defineStrategy({
    name: 'late-modifier',
    params: z.object({}),
    state: () => ({ placed: false }),
    onStart: (ctx) => ctx.watchBars(AAPL, '1d'),
    onBar: (ctx) => {
      if (ctx.state.placed) return undefined;
      ctx.state.placed = true;
      ctx.setTimerAt(Date.parse('2026-03-04T22:00:00Z'), 'modify'); // Wednesday 17:00 EST
      return ctx.order.limit({ sym: AAPL, side: 'BUY', qty: 10, price: 150, ref: 'day', timeInForce: 'DAY' });
    },
    onTimer: (ctx) => ctx.order.modify('day', { price: 151, ref: 'amend' }),
    onOrder: (_ctx, order: Order) => {
      updates.push(
        `${new Date(order.updateAt).toISOString()} ${order.orderState} ${order.action ?? ''} ${order.limitPrice?.toFixed() ?? ''}`,
      );
    },
  });
}

describe('a DAY order whose expiry falls inside a daily bar (backtest)', () => {
  it('is expired by the venue before a modify that arrives after its 16:00 close', async () => {
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
    const updates: string[] = [];
    const result = await runBacktest({
      recordings: [join(dir, 'aapl.jsonl')],
      decode: decodeMarketRecord,
      instruments: [
        anInstrument(AAPL, { tickSize: D('0.01'), lotSize: D('1'), minSize: D('1'), settleAsset: 'USD' }),
      ],
      strategies: [{ id: 's', strategy: lateModifier(updates) }],
      gate: new RiskGate(),
      startingCash: D(100_000),
      closeAtEnd: false,
    });
    const orders = [...result.orders].map(
      (o) => `${o.clientOrderId} ${o.orderState} ${o.action} ${new Date(o.updateAt).toISOString()}`,
    );
    result.dispose?.();
    // The venue ended the order at Wednesday 16:00 New York (21:00Z); the modify arriving at 17:00
    // must find it final (CANCELLED by EXPIRE at 21:00Z), not amend it.
    expect(orders).toEqual(['day CANCELLED EXPIRE 2026-03-04T21:00:00.000Z']);
  });
});
