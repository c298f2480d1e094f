import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 0, 6);
const aTempDir = tempDirsRemovedAfterAll('keel-venue-made-');

/** Quiet 1m bars, but the fifth dips to 89: through a stop at 90. */
const DIP_AT_FIFTH = [
  [100, 101, 99, 100],
  [100, 101, 99, 100],
  [100, 101, 99, 100],
  [100, 101, 99, 100],
  [100, 101, 89, 100],
  [100, 101, 99, 100],
];

describe('backtest: a stop-loss attachment is its strategy’s to see and cancel', () => {
  it('lets a strategy that closed its trade by hand remove the stop, so the stop does not sell its next trade', async () => {
    const log: string[] = [];
    const trader = defineStrategy({
      name: 'closes-by-hand',
      params: z.object({}),
      state: () => ({ bars: 0 }),
      onStart: (ctx) => ctx.watchBars(BTC, '1m'),
      onBar: (ctx) => {
        const index = ctx.state.bars++;
        if (index === 0) return ctx.order.market({ sym: BTC, side: 'BUY', qty: 1, sl: { triggerPrice: 90 } });
        if (index === 1) return ctx.order.market({ sym: BTC, side: 'SELL', qty: 1, reduceOnly: true });
        if (index === 2) {
          const stops = ctx.openAlgoOrders(BTC);
          log.push(`algo orders ${stops.map((a) => a.clientAlgoOrderId).join(',')}`);
          return stops.map((a) => ctx.order.cancelAlgo(a.clientAlgoOrderId));
        }
        if (index === 3) return ctx.order.market({ sym: BTC, side: 'BUY', qty: 1 });
        return undefined;
      },
      onFill: (_ctx, fill) => {
        log.push(
          `fill ${fill.clientOrderId} ${fill.side} ${fill.quantity.toFixed()}@${fill.price.toFixed()}`,
        );
      },
      onDenied: (_ctx, denial) => {
        log.push(`denied ${denial.reason}`);
      },
    });
    const recording = await barsRecordingIn(aTempDir(), DIP_AT_FIFTH, T0, BTC);
    const result = await runBacktest(
      barRunOptions(recording, [anInstrument(BTC)], [{ id: 't', strategy: trader }]),
    );
    expect(log).toEqual([
      'fill t-1 BUY 1@100',
      'fill t-2 SELL 1@100',
      'algo orders t-1-sl',
      'fill t-4 BUY 1@100',
    ]);
    expect([...result.fills].map((f) => f.clientOrderId)).toEqual(['t-1', 't-2', 't-4']);
  });
});
