import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy, type StrategyContext } from '../../../core/kernel/index.ts';
import type { Intent } from '../../../core/model/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 0, 6);
const aTempDir = tempDirsRemovedAfterAll('keel-venue-made-');

type TraderCtx = StrategyContext<Record<string, never>, { bars: number }>;

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
  /** Buys 1 with a stop at 90 on the first bar, then runs `later` on the bars after it. */
  function stopTrader(
    later: (index: number, ctx: TraderCtx) => Intent | Intent[] | undefined,
    log: string[],
  ) {
    return defineStrategy({
      name: 'stop-trader',
      params: z.object({}),
      state: () => ({ bars: 0 }),
      onStart: (ctx) => ctx.watchBars(BTC, '1m'),
      onBar: (ctx) => {
        const index = ctx.state.bars++;
        if (index === 0) return ctx.order.market({ sym: BTC, side: 'BUY', qty: 1, sl: { triggerPrice: 90 } });
        return later(index, ctx);
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
  }

  it('lets a strategy see its stop and cancel it, so the stop does not sell its next trade', async () => {
    const log: string[] = [];
    const trader = stopTrader((index, ctx) => {
      if (index === 1) {
        const stops = ctx.openAlgoOrders(BTC);
        log.push(`algo orders ${stops.map((a) => a.clientAlgoOrderId).join(',')}`);
        return stops.map((a) => ctx.order.cancelAlgo(a.clientAlgoOrderId));
      }
      if (index === 2) return ctx.order.market({ sym: BTC, side: 'SELL', qty: 1, reduceOnly: true });
      if (index === 3) return ctx.order.market({ sym: BTC, side: 'BUY', qty: 1 });
      return undefined;
    }, log);
    const recording = await barsRecordingIn(aTempDir(), DIP_AT_FIFTH, T0, BTC);
    const result = await runBacktest(
      barRunOptions(recording, [anInstrument(BTC)], [{ id: 't', strategy: trader }]),
    );
    expect(log).toEqual([
      'fill t-1 BUY 1@100',
      'algo orders t-1-sl',
      'fill t-3 SELL 1@100',
      'fill t-4 BUY 1@100',
    ]);
    expect([...result.fills].map((f) => f.clientOrderId)).toEqual(['t-1', 't-3', 't-4']);
  });

  it('takes the stop away with a trade the strategy closed by hand, so it does not sell the next trade', async () => {
    const log: string[] = [];
    const trader = stopTrader((index, ctx) => {
      if (index === 1) return ctx.order.market({ sym: BTC, side: 'SELL', qty: 1, reduceOnly: true });
      if (index === 2) log.push(`algo orders ${ctx.openAlgoOrders(BTC).length}`);
      if (index === 3) return ctx.order.market({ sym: BTC, side: 'BUY', qty: 1 });
      return undefined;
    }, log);
    const recording = await barsRecordingIn(aTempDir(), DIP_AT_FIFTH, T0, BTC);
    const result = await runBacktest(
      barRunOptions(recording, [anInstrument(BTC)], [{ id: 't', strategy: trader }]),
    );
    expect(log).toEqual(['fill t-1 BUY 1@100', 'fill t-2 SELL 1@100', 'algo orders 0', 'fill t-3 BUY 1@100']);
    expect([...result.fills].map((f) => f.clientOrderId)).toEqual(['t-1', 't-2', 't-3']);
  });
});
