import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anEthSpot, anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const ETH = 'OKX_SPOT_ETH_USDT';
const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-spot-coins-');
const ethSpot = anEthSpot();

// open, high, low, close of 1-minute bars
const BARS = [
  [1990, 2010, 1980, 2000],
  [2010, 2020, 2000, 2005],
  [2005, 2020, 2000, 2015],
  [2020, 2030, 2010, 2025],
];

const sellsOneAtFirstBar = defineStrategy({
  name: 'sell-starting-eth',
  params: z.object({}),
  state: () => ({ sent: false }),
  onStart: (ctx) => ctx.watchBars(ETH, '1m'),
  onBar: (ctx) => {
    if (ctx.state.sent) return undefined;
    ctx.state.sent = true;
    return ctx.order.market({ sym: ETH, side: 'SELL', qty: '1' });
  },
});

describe('backtest runner: starting with coins besides the cash', () => {
  let recording = '';
  beforeAll(async () => {
    recording = await barsRecordingIn(aTempDir(), BARS, T0, ETH);
  });

  it('sells 1 starting ETH, and measures the return from the cash plus the ETH at its first price', async () => {
    const result = await runBacktest({
      ...barRunOptions(recording, [ethSpot], [{ id: 's', strategy: sellsOneAtFirstBar }]),
      startingCoins: { ETH: D(1) },
    });
    // Placed on the first bar, filled at the second bar's open 2010, taker fee 0.1% = 2.01.
    expect(
      [...result.fills].map(
        (f) => `${f.side} ${f.quantity.toFixed()} ${f.price.toFixed()} ${f.fee.toFixed()}`,
      ),
    ).toEqual(['SELL 1 2010 2.01']);
    expect([...result.orders].filter((o) => o.orderState === 'REJECTED')).toEqual([]);
    // Start: 10000 USDT + 1 ETH at the first bar's close 2000. End: 10000 + 2010 - 2.01, no ETH.
    expect(result.metrics.equityStart.toFixed()).toBe('12000');
    expect(result.metrics.equityFinal.toFixed()).toBe('12007.99');
    expect(result.metrics.totalReturn).toBeCloseTo(7.99 / 12000, 12);
    expect(result.equityCurve[0]?.equity.toFixed()).toBe('12000');
    expect(result.meta.runConfig).toMatchObject({
      startingCash: '10000',
      startingCoins: { ETH: { qty: '1', valuedBy: ETH, price: '2000' } },
      startingEquity: '12000',
    });
    expect(result.meta.assumptions.join('\n')).toContain(
      'The run starts holding 1 ETH at 2000 (the first price of OKX_SPOT_ETH_USDT in the data) besides 10000 USDT: the starting equity, 12000 USDT',
    );
  });

  it('counts unsold starting ETH at the mark: equity follows the price, the return is the price move', async () => {
    const idle = defineStrategy({ name: 'idle', params: z.object({}), state: () => ({}) });
    const result = await runBacktest({
      ...barRunOptions(recording, [ethSpot], [{ id: 'i', strategy: idle }]),
      startingCoins: { ETH: D(2) },
    });
    // 10000 + 2 x 2000 at the start, 10000 + 2 x 2025 at the end.
    expect(result.metrics.equityStart.toFixed()).toBe('14000');
    expect(result.metrics.equityFinal.toFixed()).toBe('14050');
    expect(result.equityCurve.map((s) => s.equity.toFixed())).not.toContain('10000');
    expect(result.meta.runConfig).toMatchObject({ startingEquity: '14000' });
  });

  it("counts starting ETH at its first price while another sym's bars come before ETH's first one", async () => {
    const btcFirst = await barsRecordingIn(
      aTempDir(),
      [[50_000, 50_100, 49_900, 50_000], ...BARS.map(() => [50_000, 50_000, 50_000, 50_000])],
      T0 - 60_000,
      BTC,
    );
    const idle = defineStrategy({ name: 'idle', params: z.object({}), state: () => ({}) });
    const result = await runBacktest({
      ...barRunOptions(recording, [ethSpot, anInstrument(BTC)], [{ id: 'i', strategy: idle }]),
      recordings: [btcFirst, recording],
      startingCoins: { ETH: D(1) },
    });
    // The BTC bar closes a minute before ETH's first: the venue cannot value ETH yet, the run does (2000).
    expect(result.equityCurve[0]?.ts).toBeLessThan(T0 + 60_000);
    expect(result.equityCurve.every((s) => s.equity.gte(12_000))).toBe(true);
    expect(result.metrics.equityStart.toFixed()).toBe('12000');
    expect(result.metrics.equityFinal.toFixed()).toBe('12025');
  });

  it('refuses a starting coin no instrument of the run values, naming it', async () => {
    await expect(
      runBacktest({
        ...barRunOptions(recording, [ethSpot], [{ id: 's', strategy: sellsOneAtFirstBar }]),
        startingCoins: { BTC: D(1) },
      }),
    ).rejects.toThrow(/starting cash holds 1 BTC, but no instrument of the run trades BTC against USDT/);
  });
});
