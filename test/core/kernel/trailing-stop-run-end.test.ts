import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TrailingStop } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aTrade, BTC } from '../../kit/kernel-events.ts';

/** A strategy that buys and protects the long with a trailing stop; `cancelOnStop` cancels it in onStop. */
function protectedLong(cancelOnStop: boolean) {
  const heard: TrailingStop[] = [];
  const strategy = defineStrategy({
    name: 'protector',
    params: z.object({}),
    onStart: (ctx) => [
      ctx.order.market({ sym: BTC, side: 'BUY', qty: 1 }),
      ctx.order.trailingStop({ sym: BTC, side: 'SELL', qty: 1, offset: { ticks: 5 }, ref: 'trail-1' }),
    ],
    onTrailingStop: (_ctx, stop) => {
      heard.push(stop);
    },
    onStop: (ctx) => (cancelOnStop ? ctx.order.cancel('trail-1') : undefined),
  });
  return { strategy, heard };
}

describe("the kernel's stop and emulated trailing stops", () => {
  it('ends a stop still ACTIVE when the kernel stops: CANCELLED with cancelReason runEnded, reported to the run and listed as it was', () => {
    const p = protectedLong(false);
    const rig = aKernelRig([{ id: 's', strategy: p.strategy }]);
    rig.market.next(aTrade(1, 100));
    const reported: TrailingStop[] = [];
    rig.kernel.trailingStops.subscribe((stop) => reported.push(stop));
    rig.kernel.stop();
    expect(reported.map((s) => `${s.ref} ${s.status} ${s.cancelReason ?? '-'}`)).toEqual([
      'trail-1 CANCELLED runEnded',
    ]);
    expect(rig.kernel.openTrailingStops()).toEqual([]);
    expect(rig.kernel.trailingStopsEndedByStop().map((s) => `${s.ref} ${s.status}`)).toEqual([
      'trail-1 ACTIVE',
    ]);
    // The strategy has stopped: it hears nothing after its onStop.
    expect(p.heard.map((s) => s.status)).toEqual(['PENDING', 'ACTIVE']);
  });

  it('a stop the strategy cancels in onStop reads cancel, and the stop ends none', () => {
    const p = protectedLong(true);
    const rig = aKernelRig([{ id: 's', strategy: p.strategy }]);
    rig.market.next(aTrade(1, 100));
    const reported: TrailingStop[] = [];
    rig.kernel.trailingStops.subscribe((stop) => reported.push(stop));
    rig.kernel.stop();
    expect(reported.map((s) => `${s.ref} ${s.status} ${s.cancelReason ?? '-'}`)).toEqual([
      'trail-1 CANCELLED cancel',
    ]);
    expect(rig.kernel.trailingStopsEndedByStop()).toEqual([]);
  });
});
