import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { RiskGate, type TradingStatus } from '../../../core/risk/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 2);
const aTempDir = tempDirsRemovedAfterAll('keel-reducing-sweep-');

/**
 * Buys 10 at market on bar 1's close, places a plain limit SELL 10 at 1050 on bar 2's (it reduces
 * the long, so it passes in REDUCING), and closes the position on bar 3's.
 */
const exits = defineStrategy({
  name: 'exits',
  params: z.object({}),
  state: () => ({ bar: 0 }),
  onStart: (ctx) => ctx.watchBars(BTC, '1m'),
  onBar: (ctx) => {
    ctx.state.bar += 1;
    if (ctx.state.bar === 1) return ctx.order.market({ sym: BTC, side: 'BUY', qty: 10 });
    if (ctx.state.bar === 2) return ctx.order.limit({ sym: BTC, side: 'SELL', qty: 10, price: 1050 });
    if (ctx.state.bar === 3) return ctx.order.closePosition(BTC);
    return undefined;
  },
});

describe('a kill switch trip to REDUCING goes on sweeping as positions shrink', () => {
  it('cancels a SELL passed as reducing once the long it reduced is closed, so it never opens a short', async () => {
    // The entry's fee (5 on 10 000) trips a 0.04 % drawdown limit to REDUCING. The SELL at 1050
    // reduces the long, so it passes; the close takes the long flat on bar 4's open. Left, the SELL
    // filled on bar 5 (high 1100) and opened a short of 10 while only risk-reducing intents passed.
    const rows = [
      [1000, 1010, 990, 1000],
      [1000, 1010, 990, 1000],
      [1000, 1010, 995, 1000],
      [1000, 1010, 995, 1000],
      [1000, 1010, 995, 1000],
      [1000, 1100, 1000, 1090],
      [1090, 1100, 1080, 1090],
    ];
    const recording = await barsRecordingIn(aTempDir(), rows, T0, BTC);
    const gate = new RiskGate({ killSwitch: { maxDrawdown: 0.0004, tripTo: 'REDUCING' } });
    const trips: TradingStatus[] = [];
    gate.onKillSwitchTrip((trip) => trips.push(trip));
    const result = await runBacktest({
      ...barRunOptions(recording, [anInstrument(BTC)], [{ id: 's', strategy: exits, params: {} }]),
      gate,
      seed: 1,
      closeAtEnd: false,
    });
    try {
      expect(trips.map((t) => t.state)).toEqual(['REDUCING']);
      expect([...result.fills].map((f) => `${f.side} ${f.quantity.toFixed()}`)).toEqual([
        'BUY 10',
        'SELL 10',
      ]);
      expect([...result.orders].map((o) => `${o.orderType} ${o.side} ${o.orderState}`)).toContain(
        'LIMIT SELL CANCELLED',
      );
      expect(result.meta.warnings?.filter((w) => w.includes('kill switch'))).toEqual([
        expect.stringContaining('its sweeps cancelled 1 order(s) and algo order(s) that would add risk'),
      ]);
    } finally {
      result.dispose?.();
    }
  });
});
