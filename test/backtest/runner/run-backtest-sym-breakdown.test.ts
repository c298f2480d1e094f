import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { symBreakdownOf } from '../../../backtest/report/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D, ZERO } from '../../../core/model/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ETH = 'BINANCE_PERP_ETH_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-sym-breakdown-');

/** Flat bars (open = high = low = close) at these prices, a minute apart. */
function flat(prices: readonly number[]): number[][] {
  return prices.map((p) => [p, p, p, p]);
}

/** Buys 1 of each sym on its first bar and sells it on its third. */
const inAndOut = defineStrategy({
  name: 'in-and-out',
  params: z.object({}),
  state: () => ({ bars: new Map<string, number>() }),
  onStart: (ctx) => {
    ctx.watchBars(BTC, '1m');
    ctx.watchBars(ETH, '1m');
  },
  onBar: (ctx, bar) => {
    const n = (ctx.state.bars.get(bar.sym) ?? 0) + 1;
    ctx.state.bars.set(bar.sym, n);
    if (n === 1) return [ctx.order.market({ sym: bar.sym, side: 'BUY', qty: '1' })];
    if (n === 3) return [ctx.order.market({ sym: bar.sym, side: 'SELL', qty: '1' })];
    return undefined;
  },
});

describe('backtest runner: the per-sym breakdown', () => {
  it('gives each traded sym its figures, adding up to the run total and the metrics', async () => {
    const dir = (name: string): string => {
      const path = join(aTempDir(), name);
      mkdirSync(path);
      return path;
    };
    const recordings = [
      await barsRecordingIn(dir('btc'), flat([100, 100, 110, 120, 120, 120]), T0, BTC),
      await barsRecordingIn(dir('eth'), flat([50, 50, 50, 40, 40, 40]), T0, ETH),
    ];
    const instruments = [
      anInstrument(BTC, { fees: { maker: ZERO, taker: ZERO, markup: ZERO, fixedPerFill: ZERO } }),
      anInstrument(ETH, { fees: { maker: ZERO, taker: D('0.001'), markup: ZERO, fixedPerFill: ZERO } }),
    ];
    const result = await runBacktest({
      ...barRunOptions(recordings[0] as string, instruments, [{ id: 's', strategy: inAndOut }]),
      recordings,
    });
    const fills = [...result.fills].map((f) => `${f.sym} ${f.side} ${f.price.toFixed()}`);
    // Each order fills at the next bar's open: BTC in at 100, out at 120; ETH in at 50, out at 40.
    expect(fills).toEqual([`${BTC} BUY 100`, `${ETH} BUY 50`, `${BTC} SELL 120`, `${ETH} SELL 40`]);
    const breakdown = result.symBreakdown;
    const shown = breakdown?.syms.map((row) => ({
      sym: row.sym,
      trades: row.trades,
      winRate: row.winRate,
      netPnl: row.netPnl.toFixed(),
      fees: row.fees.toFixed(),
      returnContribution: row.returnContribution,
    }));
    // BTC: +20 of 10 000 = 0.2 %. ETH: -10 - fees (50 + 40) x 0.1 % = -10.09, -0.1009 %.
    expect(shown).toEqual([
      { sym: BTC, trades: 1, winRate: 1, netPnl: '20', fees: '0', returnContribution: 0.002 },
      { sym: ETH, trades: 1, winRate: 0, netPnl: '-10.09', fees: '0.09', returnContribution: -0.001009 },
    ]);
    expect(breakdown?.total.netPnl.toFixed()).toBe('9.91');
    expect(breakdown?.total.trades).toBe(result.metrics.tradeCount);
    expect(breakdown?.total.fees.eq(result.metrics.feesPaid)).toBe(true);
    expect(breakdown?.total.exposureTime).toBe(result.metrics.exposureTime);
    // What the run tallied as it went is what its trades and fills give.
    const fromFiles = symBreakdownOf({
      trades: result.trades,
      openTrades: result.openTrades,
      fills: result.fills,
      start: result.metrics.start,
      end: result.metrics.end,
      equityStart: result.metrics.equityStart,
    });
    expect(fromFiles).toEqual(breakdown);
    result.dispose?.();
  });
});
