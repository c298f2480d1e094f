import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import type { LatencyOptions } from '../../../backtest/sim/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { TEST_HEADER, tempDir } from '../../kit/recording-files.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = TEST_HEADER.startTime;

type Ohlc = readonly [number, number, number, number];

// 1m bars from T0 (open, high, low, close). The entry sent on bar 0's close fills in bar 1 (a
// market BUY at its open, stamped then; a limit BUY at 99 inside it, stamped at its close); the
// venue reports the fill when it matches bar 1, at bar 1's close. A stop placed on that fill
// (98 fixed; 2 under the latest price trailing) did not exist while bar 1 traded down to 90.
const BARS: readonly Ohlc[] = [
  [100, 100, 100, 100],
  [100, 100, 90, 95],
  [99.5, 100, 99.5, 100],
  [100, 100, 100, 100],
];
// The same, but bar 2, the first after the fill was reported, falls through either stop.
const BARS_FALLING: readonly Ohlc[] = [BARS[0] as Ohlc, BARS[1] as Ohlc, [95, 96, 90, 91], BARS[3] as Ohlc];

type Entry = 'market' | 'limit';

/** Buys 1 on its start (bar 0's close) and protects the fill with a stop. */
function protector(kind: 'trailing' | 'fixed', entry: Entry) {
  return defineStrategy<Record<string, never>, { placed: boolean }>({
    name: `${kind}-protector`,
    params: z.object({}).strict(),
    state: () => ({ placed: false }),
    onStart: (ctx) =>
      entry === 'market'
        ? ctx.order.market({ sym: SYM, side: 'BUY', qty: 1, ref: 'entry' })
        : ctx.order.limit({ sym: SYM, side: 'BUY', qty: 1, price: 99, ref: 'entry' }),
    onOrder: (ctx, order) => {
      if (order.orderState !== 'FILLED' || ctx.state.placed) return undefined;
      ctx.state.placed = true;
      return kind === 'trailing'
        ? ctx.order.trailingStop({ sym: SYM, side: 'SELL', qty: 1, offset: { price: 2 }, ref: 'ts1' })
        : ctx.order.algo({
            sym: SYM,
            side: 'SELL',
            qty: 1,
            triggerPrice: 98,
            condition: 'LTE',
            reduceOnly: true,
            ref: 'fx1',
          });
    },
  });
}

const LATENCIES: Record<string, LatencyOptions> = {
  'no latency': { orderEntry: { fixedMs: 0, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
  'order entry 10 ms': { orderEntry: { fixedMs: 10, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
  // The strategies see the fill before they see the bar that made it.
  'market data 5 ms, User Data 0': {
    orderEntry: { fixedMs: 10, jitterMs: 0 },
    marketData: { fixedMs: 5, jitterMs: 0 },
    userData: { fixedMs: 0, jitterMs: 0 },
  },
  // The strategies see a fill stamped at the bar's close 5 ms after the bar: the venue's cutoff allows it.
  'market data 0, User Data 5 ms': {
    orderEntry: { fixedMs: 10, jitterMs: 0 },
    marketData: { fixedMs: 0, jitterMs: 0 },
    userData: { fixedMs: 5, jitterMs: 0 },
  },
  'the default latency (with jitter)': {
    orderEntry: { fixedMs: 10, jitterMs: 5 },
    marketData: { fixedMs: 5, jitterMs: 0 },
  },
};

const CASES = Object.keys(LATENCIES).flatMap((latency) =>
  (['market', 'limit'] as const).map((entry) => ({ latency, entry })),
);

describe('a stop placed on the fill of an entry on bar data', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());

  let runs = 0;
  async function run(kind: 'trailing' | 'fixed', entry: Entry, latency: string, bars: readonly Ohlc[]) {
    const dir = join(temp.dir, `run${++runs}`);
    await mkdir(dir);
    const path = await barsRecordingIn(dir, bars, T0, SYM);
    const result = await runBacktest({
      ...barRunOptions(path, [anInstrument(SYM)], [{ id: 's', strategy: protector(kind, entry) }]),
      latency: LATENCIES[latency] as LatencyOptions,
    });
    const buys = [...result.fills].filter((f) => f.side === 'BUY');
    const sells = [...result.fills].filter((f) => f.side === 'SELL').map((f) => f.timestamp - T0);
    const stop = result.trailingStops?.[0];
    result.dispose?.();
    return {
      buys: buys.length,
      sells,
      created: stop?.steps[0]?.ts,
      triggeredAt: stop?.steps.find((step) => step.status === 'TRIGGERED')?.ts,
    };
  }

  for (const { latency, entry } of CASES) {
    it(`${entry} entry, ${latency}: the venue stop and the trailing stop both sit out the bar that filled the entry`, async () => {
      const fixed = await run('fixed', entry, latency, BARS);
      expect(fixed.buys).toBe(1);
      expect(fixed.sells).toEqual([]);
      const trailing = await run('trailing', entry, latency, BARS);
      expect(trailing.created).toBeGreaterThanOrEqual(T0 + 120_000);
      expect(trailing.triggeredAt).toBeUndefined();
      expect(trailing.sells).toEqual([]);
    });

    it(`${entry} entry, ${latency}: both stops meet the next bar, which falls through them`, async () => {
      const fixed = await run('fixed', entry, latency, BARS_FALLING);
      // The venue stop fires on bar 2: its order fills there.
      expect(fixed.sells).toHaveLength(1);
      expect(fixed.sells[0]).toBeGreaterThanOrEqual(120_000);
      expect(fixed.sells[0]).toBeLessThan(181_000);
      const trailing = await run('trailing', entry, latency, BARS_FALLING);
      // The emulated stop fires when the kernel gets bar 2 (its close, plus the market-data delay).
      expect((trailing.triggeredAt ?? Number.NaN) - T0).toBeGreaterThanOrEqual(180_000);
      expect((trailing.triggeredAt ?? Number.NaN) - T0).toBeLessThan(181_000);
    });
  }
});
