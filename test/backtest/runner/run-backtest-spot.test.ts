import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anEthSpot } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const ETH = 'OKX_SPOT_ETH_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-spot-run-');
const ethSpot = anEthSpot();

const BARS = [
  [2000, 2010, 1990, 2000],
  [2000, 2010, 1990, 2005],
  [2010, 2020, 2000, 2015],
  [2020, 2030, 2010, 2025],
  [2030, 2040, 2020, 2035],
  [2035, 2040, 2030, 2035],
];

describe('backtest runner: a strategy trading spot', () => {
  let recording = '';
  beforeAll(async () => {
    recording = await barsRecordingIn(aTempDir(), BARS, T0, ETH);
  });

  it('is told its spot sale without ETH was refused (REJECTED 401023), and sees a buy move USDT into ETH', async () => {
    const seen: string[] = [];
    const roundTrip = defineStrategy({
      name: 'spot-round-trip',
      params: z.object({}),
      state: () => ({ bars: 0 }),
      onStart: (ctx) => ctx.watchBars(ETH, '1m'),
      onBar: (ctx) => {
        const index = ctx.state.bars++;
        if (index === 0) return ctx.order.market({ sym: ETH, side: 'SELL', qty: '1' });
        if (index === 1) return ctx.order.market({ sym: ETH, side: 'BUY', qty: '1' });
        if (index === 3) {
          seen.push(`ETH ${ctx.balance('ETH')} USDT ${ctx.balance('USDT')} net ${ctx.netQty(ETH)}`);
          return ctx.order.market({ sym: ETH, side: 'SELL', qty: '1' });
        }
        return undefined;
      },
      onOrder: (_ctx, order) => {
        if (order.orderState === 'REJECTED') seen.push(`${order.side} REJECTED ${order.reason ?? ''}`);
      },
    });
    const result = await runBacktest(barRunOptions(recording, [ethSpot], [{ id: 's', strategy: roundTrip }]));
    expect(seen[0]).toMatch(/^SELL REJECTED 401023 .*needs 1 ETH, available 0 ETH/);
    // bought 1 at bar 2's open 2010, fee 2.01: USDT 10000 - 2010 - 2.01
    expect(seen[1]).toBe('ETH 1 USDT 7987.99 net 1');
    expect(seen).toHaveLength(2);
    // sold 1 at bar 4's open 2030, fee 2.03: USDT 7987.99 + 2030 - 2.03, no ETH left
    expect([...result.fills].map((f) => `${f.side} ${f.price.toFixed()} ${f.fee.toFixed()}`)).toEqual([
      'BUY 2010 2.01',
      'SELL 2030 2.03',
    ]);
    expect(result.metrics.equityFinal.toFixed()).toBe('10015.96');
  });

  it('counts ETH held in the equity curve at the market price', async () => {
    const holder = defineStrategy({
      name: 'spot-holder',
      params: z.object({}),
      state: () => ({ sent: false }),
      onStart: (ctx) => ctx.watchBars(ETH, '1m'),
      onBar: (ctx) => {
        if (ctx.state.sent) return undefined;
        ctx.state.sent = true;
        return ctx.order.market({ sym: ETH, side: 'BUY', qty: '2' });
      },
    });
    const result = await runBacktest(barRunOptions(recording, [ethSpot], [{ id: 'h', strategy: holder }]));
    // bought 2 at bar 1's open 2000, fee 4: USDT 5996 and 2 ETH at the last close 2035
    expect(result.metrics.equityFinal.toFixed()).toBe('10066');
    expect(result.openTrades.map((t) => t.qty.toFixed())).toEqual(['2']);
  });
});
