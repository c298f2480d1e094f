import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { BacktestResult } from '../../../backtest/report/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 0, 6);
const FAULT_BAR = 30;

/**
 * On its first bar: buys 1 at market with a take-profit at 120 and a stop-loss at 90 attached,
 * and rests a buy far below (it would add to the long) and a plain trigger buy far above (it would
 * too); throws on bar {@link FAULT_BAR}.
 */
const bracketThenThrow = defineStrategy({
  name: 'bracket-then-throw',
  params: z.object({}).strict(),
  state: () => ({ bars: 0 }),
  onStart: (ctx) => ctx.watchBars(SYM, '1m'),
  onBar: (ctx) => {
    ctx.state.bars += 1;
    if (ctx.state.bars === FAULT_BAR) throw new Error(`boom on bar ${FAULT_BAR}`);
    if (ctx.state.bars > 1) return undefined;
    return [
      ctx.order.market({
        sym: SYM,
        side: 'BUY',
        qty: 1,
        ref: 'entry',
        tp: { triggerPrice: 120 },
        sl: { triggerPrice: 90 },
      }),
      ctx.order.limit({ sym: SYM, side: 'BUY', qty: 1, price: 50, ref: 'dip-buy' }),
      ctx.order.algo({ sym: SYM, side: 'BUY', qty: 1, triggerPrice: 150, condition: 'GTE', ref: 'breakout' }),
    ];
  },
});

const aTempDir = tempDirsRemovedAfterAll('keel-fault-sweep-');

/** Flat bars at 100 up to well after the fault, then a bar falling through the stop-loss to 85. */
async function recording(): Promise<string> {
  const flat = Array.from({ length: FAULT_BAR + 5 }, () => [100, 101, 99, 100]);
  return barsRecordingIn(aTempDir(), [...flat, [100, 100, 85, 86], [86, 87, 85, 86]], T0, SYM);
}

async function run(cancelOrdersOnFault?: boolean): Promise<BacktestResult> {
  return runBacktest({
    ...barRunOptions(await recording(), [anInstrument(SYM)], [{ id: 'br', strategy: bracketThenThrow }]),
    ...(cancelOrdersOnFault === undefined ? {} : { cancelOrdersOnFault }),
  });
}

describe('a strategy halted by a fault keeps the stop-loss of its open position', () => {
  it('cancels the orders that would add to the position and leaves the tp / sl attachments, whose stop-loss fires later', async () => {
    const result = await run();
    try {
      expect(result.faults?.map((f) => f.error)).toEqual([`Error: boom on bar ${FAULT_BAR}`]);
      const faultTs = result.faults?.[0]?.ts ?? Number.NaN;
      const orders = [...result.orders].map((o) => `${o.clientOrderId} ${o.side} ${o.orderState}`);
      expect(orders).toContain('entry BUY FILLED');
      expect(orders).toContain('dip-buy BUY CANCELLED');
      const algos = new Map([...(result.algoOrders ?? [])].map((a) => [a.clientAlgoOrderId, a]));
      expect(algos.get('breakout')?.state).toBe('CANCELLED');
      const sl = algos.get('entry-sl');
      expect(sl?.state).toBe('TRIGGERED');
      // It fired after the halt, on the bar falling to 85, and closed the long.
      expect(sl?.updateAt).toBeGreaterThan(faultTs);
      expect(algos.get('entry-tp')?.state).toBe('CANCELLED');
      const sold = [...result.orders].filter((o) => o.side === 'SELL' && o.orderState === 'FILLED');
      expect(sold.map((o) => o.executedQty.toFixed())).toEqual(['1']);
    } finally {
      result.dispose?.();
    }
  });
});
