import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, type Kernel } from '../../../core/kernel/index.ts';
import type { BarEvent, MarketEvent } from '../../../core/model/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, anAccountUpdate, BTC, ETH } from '../../kit/kernel-events.ts';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
/** The run's clock at start: minute 10. */
const LIVE = T0 + 10 * MIN;

function bar(minute: number): BarEvent {
  const p = 100 + minute;
  return aFeedBar(T0 + minute * MIN, [p, p + 0.5, p - 0.5, p + 0.4, 10]);
}

async function* batches(
  events: readonly MarketEvent[],
  between: () => void = () => {},
): AsyncGenerator<readonly MarketEvent[]> {
  // Two batches, as a reader gives them.
  yield events.slice(0, 3);
  between();
  yield events.slice(3);
}

interface Log {
  start?: { now: number; warmingUp: boolean };
  bars: string[];
  timers: number[];
}

/** Watches 1m and 5m bars, asks to buy on every bar, ticks a minute timer; logs what it sees. */
function watcher(log: Log) {
  return defineStrategy({
    name: 'watcher',
    params: z.object({}),
    onStart: (ctx) => {
      log.start = { now: ctx.now(), warmingUp: ctx.warmingUp };
      ctx.watchBars(BTC, '1m');
      ctx.watchBars(BTC, '5m');
      ctx.every(MIN, 'tick');
    },
    onBar: (ctx, b) => {
      log.bars.push(`${b.interval}@${(b.openTime - T0) / MIN}${ctx.warmingUp ? ' warm' : ''}`);
      return ctx.order.market({ sym: BTC, side: 'BUY', qty: '0.1' });
    },
    onTimer: (ctx, t) => {
      if (ctx.warmingUp) log.timers.push((t.ts - T0) / MIN);
    },
  });
}

function rig(history: readonly MarketEvent[], between?: (kernel: Kernel) => void) {
  const log: Log = { bars: [], timers: [] };
  let kernel: Kernel | undefined;
  const r = aKernelRig([{ id: 'w', strategy: watcher(log), params: {} }], {
    start: LIVE,
    warmUp: { periodMs: 5 * MIN, history: batches(history, () => between?.(kernel as Kernel)) },
  });
  kernel = r.kernel;
  return { ...r, log };
}

describe('kernel: warm-up on history', () => {
  it('replays the period before the start on virtual time, denying every intent, then trades on the live feed', async () => {
    // History from minute 0 to 11: what is older than the period or not before the start is left out.
    const { kernel, market, denials, log, venue } = rig(Array.from({ length: 12 }, (_, m) => bar(m)));
    const coverage = await kernel.whenTrading();
    expect(log.start).toEqual({ now: T0 + 5 * MIN, warmingUp: true });
    // Bars opening at 5..8 are received by minute 9; the one opening at 9 closes at the start: the live feed's.
    expect(log.bars).toEqual(['1m@5 warm', '1m@6 warm', '1m@7 warm', '1m@8 warm']);
    expect(log.timers).toEqual([6, 7, 8, 9]);
    expect(denials.map((d) => d.check)).toEqual(Array(4).fill('kernel.warmUp'));
    expect(coverage).toEqual({
      from: T0 + 5 * MIN,
      until: LIVE,
      events: 4,
      first: T0 + 5 * MIN,
      last: T0 + 9 * MIN,
      uncovered: [],
      short: [],
      otherSyms: [],
      reaches: true,
      complete: true,
    });
    expect(kernel.warmingUp).toBe(false);

    // Live: the bar opening at 9 completes the 5m bar the history began; the orders go out.
    market.next(bar(9));
    expect(log.bars.slice(4)).toEqual(['1m@9', '5m@5']);
    expect(venue.submitted.length).toBe(2);
    expect(denials.length).toBe(4);
  });

  it("keeps the history's time while User Data of the run's time arrives during the warm-up", async () => {
    const { kernel, log } = rig(
      Array.from({ length: 10 }, (_, m) => bar(m)),
      (k) => k.push(anAccountUpdate(LIVE + 3_600_000, '5000')),
    );
    await kernel.whenTrading();
    expect(log.bars).toEqual(['1m@5 warm', '1m@6 warm', '1m@7 warm', '1m@8 warm']);
    expect(log.timers).toEqual([6, 7, 8, 9]);
    expect(kernel.state.equity().toFixed()).toBe('5000');
  });

  it('says how much of the period history that starts late covered', async () => {
    const { kernel } = rig([bar(7), bar(8)]);
    const coverage = await kernel.whenTrading();
    expect(coverage).toMatchObject({ events: 2, first: T0 + 7 * MIN, complete: false });
  });

  it("counts no coverage for history of syms that are not the run's instruments", async () => {
    const other = (minute: number): BarEvent => ({ ...bar(minute), sym: `${BTC}X` });
    const { kernel, log } = rig(Array.from({ length: 10 }, (_, m) => other(m)));
    const coverage = await kernel.whenTrading();
    expect(log.bars).toEqual([]);
    expect(coverage).toMatchObject({
      events: 0,
      first: undefined,
      uncovered: [BTC],
      otherSyms: [`${BTC}X`],
      complete: false,
    });
  });

  it('says which watched instrument the history held nothing of: ETH history for strategies on BTC', async () => {
    const { kernel, log } = rig(Array.from({ length: 10 }, (_, m) => ({ ...bar(m), sym: ETH })));
    const coverage = await kernel.whenTrading();
    expect(log.bars).toEqual([]);
    expect(coverage).toMatchObject({ events: 4, reaches: true, uncovered: [BTC], complete: false });
  });

  it('warms up on nothing when the history holds nothing before the start, and still trades', async () => {
    const { kernel, market, log, venue } = rig([bar(10), bar(11)]);
    expect(await kernel.whenTrading()).toMatchObject({ events: 0, first: undefined, complete: false });
    market.next(bar(10));
    expect(log.bars).toEqual(['1m@10']);
    expect(venue.submitted.length).toBe(1);
  });
});
