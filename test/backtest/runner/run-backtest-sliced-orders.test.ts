import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy, type StrategyContext } from '../../../core/kernel/index.ts';
import { D, type Intent } from '../../../core/model/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-runner-sliced-');

/**
 * Long 2.5 at the first bar, reversed to short 2.5 at the third, flat at the fifth: each change
 * sent from one onBar call, in market orders of at most `piece`.
 */
function reverser(piece: string) {
  const max = D(piece);
  const orders = (
    ctx: StrategyContext<unknown, { bars: number }>,
    side: 'BUY' | 'SELL',
    qty: string,
  ): Intent[] => {
    const out: Intent[] = [];
    for (let left = D(qty); left.gt(0); left = left.sub(max))
      out.push(ctx.order.market({ sym: BTC, side, qty: left.gt(max) ? max : left }));
    return out;
  };
  return defineStrategy<unknown, { bars: number }>({
    name: 'sliced-reverser',
    params: z.object({}),
    state: () => ({ bars: 0 }),
    onStart: (ctx) => ctx.watchBars(BTC, '1m'),
    onBar: (ctx) => {
      const bar = ctx.state.bars++;
      if (bar === 0) return orders(ctx, 'BUY', '2.5');
      if (bar === 2) return orders(ctx, 'SELL', '5');
      if (bar === 4) return orders(ctx, 'BUY', '2.5');
      return undefined;
    },
  });
}

describe('backtest runner: an order sliced into several', () => {
  let bars = '';
  beforeAll(async () => {
    const closes = [100, 104, 108, 106, 103, 101, 100];
    bars = await barsRecordingIn(
      aTempDir(),
      closes.map((c) => [c, c + 1, c - 1, c]),
      T0,
      BTC,
    );
  });

  const tradesOf = async (piece: string) => {
    const result = await runBacktest({
      ...barRunOptions(bars, [anInstrument(BTC)], [{ id: 's', strategy: reverser(piece), params: {} }]),
      startingCash: D(100_000),
    });
    const trades = [...result.trades].map((t) => ({
      direction: t.direction,
      qty: t.qty.toFixed(),
      entryPrice: t.entryPrice.toFixed(),
      exitPrice: t.exitPrice.toFixed(),
      pnl: t.pnl.toFixed(),
    }));
    const stats = {
      count: result.metrics.tradeCount,
      winRate: result.metrics.winRate,
      sqn: result.metrics.sqn,
    };
    result.dispose?.();
    return { trades, stats };
  };

  it("counts the orders one hook call sent for one change as one trade's entry or exit, as one order of that size", async () => {
    const whole = await tradesOf('100');
    const sliced = await tradesOf('1');
    expect(whole.trades.map((t) => [t.direction, t.qty])).toEqual([
      ['LONG', '2.5'],
      ['SHORT', '2.5'],
    ]);
    // Before, each piece was an order of its own: 3 long and 5 short trades.
    expect(sliced).toEqual(whole);
  });
});
