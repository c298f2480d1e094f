import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { importOhlcvCsv } from '../../../backtest/csv/index.ts';
import { type BacktestRunOptions, runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const aTempDir = tempDirsRemovedAfterAll('keel-runner-warm-up-');

/** What a strategy saw: each bar's open (minutes after T0) and whether it was warming up then. */
interface Seen {
  bars: { minute: number; warmingUp: boolean }[];
  equity: string[];
  denied: { minute: number; check: string; reason: string }[];
  entries: number[];
}

/**
 * A Donchian(3) breakout on 1m bars: buys when a bar closes above the highest high of the three
 * bars before it. It asks as soon as it has three bars, warming up or not: no branch needed.
 */
function donchian(seen: Seen) {
  return defineStrategy({
    name: 'donchian-3',
    params: z.object({}),
    state: () => ({ highs: [] as number[] }),
    onStart: (ctx) => ctx.watchBars(BTC, '1m'),
    onBar: (ctx, bar) => {
      const minute = (bar.openTime - T0) / MIN;
      seen.bars.push({ minute, warmingUp: ctx.warmingUp });
      seen.equity.push(ctx.equity().toFixed());
      const highs = ctx.state.highs;
      const breakout = highs.length === 3 && bar.close > Math.max(...highs);
      highs.push(bar.high);
      if (highs.length > 3) highs.shift();
      if (!breakout || !ctx.netQty(BTC).isZero()) return;
      seen.entries.push(minute);
      return ctx.order.market({ sym: BTC, side: 'BUY', qty: '1' });
    },
    onDenied: (ctx, denial) => {
      seen.denied.push({ minute: (ctx.now() - T0) / MIN, check: denial.check, reason: denial.reason });
    },
  });
}

/** Twelve 1m bars: a breakout at every bar (each closes above all before), so a ready strategy buys at once. */
const RISING = Array.from({ length: 12 }, (_, i) => [100 + i, 100.5 + i, 99.5 + i, 100.4 + i]);

async function run(extra: Partial<BacktestRunOptions>) {
  const recording = await barsRecordingIn(aTempDir(), RISING, T0, BTC);
  const seen: Seen = { bars: [], equity: [], denied: [], entries: [] };
  const result = await runBacktest({
    ...barRunOptions(recording, [anInstrument(BTC)], [{ id: 'dc', strategy: donchian(seen), params: {} }]),
    ...extra,
  });
  const orders = [...result.orders];
  const denials = [...(result.denials ?? [])];
  const out = { result, seen, orders, denials };
  result.dispose?.();
  return out;
}

describe('backtest runner: warm-up', () => {
  it('warms a Donchian(3) up on the first 3 bars: it sees them warming up, trades on the first bar after, never before', async () => {
    const { seen, orders } = await run({ warmUp: { periodMs: 3 * MIN } });
    expect(seen.bars.slice(0, 4)).toEqual([
      { minute: 0, warmingUp: true },
      { minute: 1, warmingUp: true },
      { minute: 2, warmingUp: true },
      { minute: 3, warmingUp: false },
    ]);
    // Ready after three bars: the fourth (the first after the warm-up) breaks out and buys.
    expect(seen.entries[0]).toBe(3);
    expect(orders.length).toBeGreaterThan(0);
    // Bar 3 is received at its close (minute 4): the order is made then, not during the warm-up.
    expect(Math.min(...orders.map((o) => o.createAt))).toBeGreaterThanOrEqual(T0 + 4 * MIN);
  });

  it('denies what a strategy asks for during the warm-up, tells it why, and records the denial in the run', async () => {
    // Warm-up of 5 bars: the strategy is ready after 3 and asks at bars 3 and 4, still warming up.
    const { seen, denials, orders } = await run({ warmUp: { periodMs: 5 * MIN } });
    expect(seen.denied.map((d) => d.check)).toEqual(['kernel.warmUp', 'kernel.warmUp']);
    expect(seen.denied[0]?.reason).toContain('warms up on 5 min of history');
    expect(denials.map((d) => [d.check, (d.ts - T0) / MIN])).toEqual([
      ['kernel.warmUp', 4],
      ['kernel.warmUp', 5],
    ]);
    // The first order goes out on bar 5, the first after the warm-up (received at minute 6).
    const firstOrderAt = Math.min(...orders.map((o) => o.createAt));
    expect(firstOrderAt).toBeGreaterThanOrEqual(T0 + 6 * MIN);
    expect(firstOrderAt).toBeLessThan(T0 + 7 * MIN);
  });

  it('starts the equity curve, the prices behind buy & hold and the report after the warm-up', async () => {
    const { result } = await run({ warmUp: { periodMs: 5 * MIN } });
    expect(result.equityCurve[0]?.ts).toBeGreaterThanOrEqual(T0 + 5 * MIN);
    for (const series of result.prices) expect(series.points[0]?.ts).toBeGreaterThanOrEqual(T0 + 5 * MIN);
    expect(result.meta.runConfig.warmUp).toEqual({
      periodMs: 5 * MIN,
      from: new Date(T0).toISOString(),
      until: new Date(T0 + 5 * MIN).toISOString(),
      events: 5,
    });
    expect(result.meta.assumptions.some((a) => a.startsWith('Warm-up of 5 min'))).toBe(true);
  });

  it('with a window, warms up on the data before its start and warns when that is shorter than the period', async () => {
    const { seen } = await run({ window: { from: T0 + 6 * MIN }, warmUp: { periodMs: 3 * MIN } });
    expect(seen.bars.slice(0, 4)).toEqual([
      { minute: 3, warmingUp: true },
      { minute: 4, warmingUp: true },
      { minute: 5, warmingUp: true },
      { minute: 6, warmingUp: false },
    ]);
    const short = await run({ window: { from: T0 + 2 * MIN }, warmUp: { periodMs: 5 * MIN } });
    expect(short.seen.bars[0]).toEqual({ minute: 0, warmingUp: true });
    expect(short.result.meta.warnings).toContain(
      'warm-up: the recordings cover only 2 min of the 5 min warm-up before 2024-01-01T00:02:00.000Z (2 events); indicators may not be ready when trading starts',
    );
  });

  it('counted in bars, warns when the data holds fewer bars than asked for in their span (a market that closes)', async () => {
    const dir = aTempDir();
    // Minutes 0-2, then a pause of two minutes, then minutes 5-11: 5 bars of 1m span minutes 0-4, 3 hold data.
    const minutes = [0, 1, 2, 5, 6, 7, 8, 9, 10, 11];
    const csv = minutes.map((m, i) => [T0 + m * MIN, ...(RISING[i] as number[]), 10].join(','));
    await writeFile(join(dir, 'gaps.csv'), `timestamp,open,high,low,close,volume\n${csv.join('\n')}\n`);
    await importOhlcvCsv({ input: join(dir, 'gaps.csv'), output: join(dir, 'gaps.jsonl'), sym: BTC });
    const options = (recording: string) =>
      barRunOptions(
        recording,
        [anInstrument(BTC)],
        [{ id: 'dc', strategy: donchian({ bars: [], equity: [], denied: [], entries: [] }), params: {} }],
      );
    const gapped = await runBacktest({
      ...options(join(dir, 'gaps.jsonl')),
      warmUp: { periodMs: 5 * MIN, alignMs: MIN },
    });
    gapped.dispose?.();
    expect(gapped.meta.warnings).toContain(
      'warm-up: 5 bars of 1 min span 5 min, in which the recordings held data in 3 bars only (a market that closes, nights, weekends); an indicator of 5 bars is not ready when trading starts: ask for more bars (e.g. 9)',
    );
    const whole = await run({ warmUp: { periodMs: 5 * MIN, alignMs: MIN } });
    expect((whole.result.meta.warnings ?? []).filter((w) => w.startsWith('warm-up'))).toEqual([]);
  });

  it('funds the account from the warm-up on, so sizing on equity gives while warming up what it will give after', async () => {
    const { seen } = await run({ warmUp: { periodMs: 3 * MIN } });
    expect(seen.equity.slice(0, 4)).toEqual(['10000', '10000', '10000', '10000']);
  });

  it('refuses a warm-up that takes every event, saying so', async () => {
    await expect(run({ warmUp: { periodMs: 60 * MIN } })).rejects.toThrow(
      'the warm-up of 1 h (to 2024-01-01T01:00:00.000Z) takes all 12 events of the recordings',
    );
  });
});
