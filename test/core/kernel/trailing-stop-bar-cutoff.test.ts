import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { TEST_HEADER, tempDir } from '../../kit/recording-files.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = TEST_HEADER.startTime;

// Bars (open, high, low, close), 1m each from T0. The stop is placed from a timer at T0+90s,
// half-way through bar 1, when the latest price is bar 0's close 100: a SELL stop 2 under it, at 98.
// Bar 1 opened at T0+60s, before the stop existed; its low 90 may well have come then.
const BARS = [
  [100, 100, 100, 100],
  [100, 100, 90, 95],
  [99.5, 100, 99.5, 100],
  [100, 100, 100, 100],
] as const;

function stopper(kind: 'trailing' | 'fixed') {
  return defineStrategy({
    name: `${kind}-stopper`,
    params: z.object({}).strict(),
    onStart: (ctx) => {
      ctx.setTimer(30_000, 'place'); // onStart runs at bar 0's close, T0+60s: fires at T0+90s
    },
    onTimer: (ctx) =>
      kind === 'trailing'
        ? ctx.order.trailingStop({
            sym: SYM,
            side: 'SELL',
            qty: 1,
            offset: { price: 2 },
            reduceOnly: false,
            ref: 'ts1',
          })
        : ctx.order.algo({
            sym: SYM,
            side: 'SELL',
            qty: 1,
            triggerPrice: 98,
            condition: 'LTE',
            reduceOnly: false,
            ref: 'fx1',
          }),
  });
}

describe('porting (NautilusTrader trailing stop): a stop placed inside a bar on bar data', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());

  async function run(kind: 'trailing' | 'fixed') {
    const dir = join(temp.dir, kind);
    await mkdir(dir);
    const path = await barsRecordingIn(dir, BARS, T0, SYM);
    const result = await runBacktest({
      ...barRunOptions(path, [anInstrument(SYM)], [{ id: 's', strategy: stopper(kind), params: {} }]),
      latency: { orderEntry: { fixedMs: 10, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    });
    const fills = [...result.fills].map((f) => `T0+${f.timestamp - T0}ms ${f.side} @ ${f.price.toFixed()}`);
    const created = result.trailingStops?.[0]?.steps[0]?.ts;
    result.dispose?.();
    return { fills, created };
  }

  it('a fixed stop at 98 placed at T0+90s sits bar 1 out (the venue rule) and never fires', async () => {
    expect((await run('fixed')).fills).toEqual([]);
  });

  it('the trailing stop at 98 placed at the same moment does not fire on bar 1 prices from before it existed', async () => {
    const { fills, created } = await run('trailing');
    expect(created).toBe(T0 + 90_000);
    // Same level, same moment as the fixed stop: the bars after its placement (2, 3) never reach 98.
    expect(fills).toEqual([]);
  });
});
