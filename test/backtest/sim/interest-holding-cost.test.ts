import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anEthSpot } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const ETH = 'OKX_SPOT_ETH_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-interest-cost-');

/** Borrows 3 ETH and sells them in three orders (100, 101, 101: an average that does not end), buys back later. */
const threeSellsThenBuyBack = defineStrategy({
  name: 'three-sells',
  params: z.object({}),
  state: () => ({ bars: 0 }),
  onStart: (ctx) => ctx.watchBars(ETH, '1m'),
  onBar: (ctx) => {
    const n = ++ctx.state.bars;
    if (n === 1)
      return [
        ctx.order.borrow({ exchange: 'OKX', coin: 'ETH', amount: '3' }),
        ctx.order.market({ sym: ETH, side: 'SELL', qty: '1' }),
      ];
    if (n === 2 || n === 3) return [ctx.order.market({ sym: ETH, side: 'SELL', qty: '1' })];
    if (n === 150) return [ctx.order.market({ sym: ETH, side: 'BUY', qty: '3.001' })];
    if (n === 152) return [ctx.order.repay({ exchange: 'OKX', coin: 'ETH', amount: '3' })];
    return undefined;
  },
});

describe('interest in the borrowed coin taken from a short whose average price does not end', () => {
  it('leaves every rpnl, balance and equity a short finite decimal', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => {
      const p = i < 2 ? 100 : i < 160 ? 101 : 99;
      return [p, p + 1, p - 1, p];
    });
    const rec = await barsRecordingIn(aTempDir(), rows, T0, ETH);
    const result = await runBacktest({
      ...barRunOptions(rec, [anEthSpot()], [{ id: 's', strategy: threeSellsThenBuyBack }]),
      startingCash: D(1000),
      closeAtEnd: true,
      sim: { loans: { assets: { 'OKX:ETH': { annualRate: D('0.876'), userQuota: D(100), pool: D(100) } } } },
    });
    const long = (s: string) => (s.split('.')[1] ?? '').length > 12;
    expect([...result.fills].map((f) => f.rpnl.toFixed()).filter(long)).toEqual([]);
    expect(long(result.metrics.equityFinal.toFixed())).toBe(false);
    // by hand: the short of 3 cost 302 and grew by two hourly charges of 0.0003 ETH at its average
    // price, so the buy-back at 101 of 3.0006 realizes 302 x 3.0006 / 3 - 101 x 3.0006 = -1.0002
    const buyBack = [...result.fills].find((f) => f.side === 'BUY');
    expect(buyBack?.rpnl.toFixed()).toBe('-1.0002');
  });
});
