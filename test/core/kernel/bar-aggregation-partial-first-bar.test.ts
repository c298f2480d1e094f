import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, Kernel, virtualScheduler } from '../../../core/kernel/index.ts';
import type { BarEvent, MarketEvent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, aQuote, aTrade, BTC } from '../../kit/kernel-events.ts';
import { aRecordingPort } from '../../kit/recording-execution-port.ts';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;

/** Watches BTC 1m and 5m bars at start; collects them. */
function atStart(bars: BarEvent[]) {
  return defineStrategy({
    name: 'partial-at-start',
    params: z.object({}),
    onStart: (ctx) => {
      ctx.watchBars(BTC, '1m');
      ctx.watchBars(BTC, '5m');
    },
    onBar: (_ctx, bar) => {
      bars.push(bar);
    },
  });
}

const flagged = (bars: readonly BarEvent[]) =>
  bars.map((b) => `${b.interval}@${(b.openTime - T0) / MIN}${b.partial ? ' partial' : ''}`);

describe('the first bar built after a start or a watch in the middle of its period', () => {
  it('is flagged partial after a live start mid-minute, and the bars after it are not', () => {
    const bars: BarEvent[] = [];
    // The session starts 17 s into minute 0: the trades of its first 17 s were never seen.
    const { kernel } = aKernelRig([{ id: 'p', strategy: atStart(bars) }], { start: T0 + 17_000 });
    for (let m = 0; m < 6; m++) kernel.push(aTrade(T0 + m * MIN + 20_000, 100 + m));
    kernel.push(aQuote(T0 + 6 * MIN, 100));
    expect(flagged(bars)).toEqual(['1m@0 partial', '1m@1', '1m@2', '1m@3', '1m@4', '5m@0 partial', '1m@5']);
  });

  it('is flagged partial after a watchBars mid-run, mid-bar', () => {
    const bars: BarEvent[] = [];
    const late = defineStrategy({
      name: 'partial-mid-run',
      params: z.object({}),
      onTrade: (ctx) => ctx.watchBars(BTC, '5m'),
      onBar: (_ctx, bar) => {
        bars.push(bar);
      },
    });
    const { kernel } = aKernelRig([{ id: 'p', strategy: late }], { start: T0 });
    // Watched at the first trade, 2 min into the 5m bar opening at T0.
    for (let m = 2; m < 11; m++) kernel.push(aTrade(T0 + m * MIN, 100));
    expect(flagged(bars)).toEqual(['5m@0 partial', '5m@5']);
  });

  it('is flagged partial after a watchBars mid-run, even right after a refused second start', async () => {
    const bars: BarEvent[] = [];
    const late = defineStrategy({
      name: 'partial-after-second-start',
      params: z.object({}),
      onTrade: (ctx, trade) => (trade.price === 101 ? ctx.watchBars(BTC, '5m') : undefined),
      onBar: (_ctx, bar) => {
        bars.push(bar);
      },
    });
    // A backtest's kernel: its data is whole from T0, so only a watch at the start builds from there.
    const kernel = new Kernel({
      instruments: [anInstrument(BTC)],
      market: new Subject<MarketEvent>(),
      execution: aRecordingPort(),
      gate: new RiskGate(),
      scheduler: virtualScheduler(T0),
      strategies: [{ id: 'p', strategy: late }],
      barsWholeFrom: T0,
    });
    void kernel.start();
    kernel.push(aTrade(T0 + 2 * MIN, 100));
    await expect(kernel.start()).rejects.toThrow(/started/);
    // Watched 2 min into the 5m bar opening at T0, at the refused start's time.
    for (let m = 2; m < 11; m++) kernel.push(aTrade(T0 + m * MIN, 101));
    expect(flagged(bars)).toEqual(['5m@0 partial', '5m@5']);
  });

  it('is flagged partial when built from 1m klines that begin after its open, past the start', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'p', strategy: atStart(bars) }], { start: T0 + 2 * MIN + 17_000 });
    for (let m = 2; m < 10; m++) kernel.push(aFeedBar(T0 + m * MIN, [100, 101, 99, 100, 1]));
    expect(flagged(bars).filter((b) => b.startsWith('5m'))).toEqual(['5m@0 partial', '5m@5']);
  });

  it('is never flagged when the feed gives the bar, nor when the start is on the bar’s open', () => {
    const bars: BarEvent[] = [];
    const { kernel } = aKernelRig([{ id: 'p', strategy: atStart(bars) }], { start: T0 + 17_000 });
    for (let m = 0; m < 5; m++) kernel.push(aFeedBar(T0 + m * MIN, [100, 101, 99, 100, 1]));
    expect(flagged(bars).filter((b) => b.startsWith('1m'))).toEqual(['1m@0', '1m@1', '1m@2', '1m@3', '1m@4']);
    // Built from 1m klines the first of which opens on the 5m bar's open: whole.
    expect(flagged(bars).filter((b) => b.startsWith('5m'))).toEqual(['5m@0']);
    const onOpen: BarEvent[] = [];
    const rig = aKernelRig([{ id: 'q', strategy: atStart(onOpen) }], { start: T0 });
    rig.kernel.push(aTrade(T0 + 1_000, 100));
    rig.kernel.push(aQuote(T0 + MIN, 100));
    expect(flagged(onOpen)).toEqual(['1m@0']);
  });
});
