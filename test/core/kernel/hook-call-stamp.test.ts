import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

describe('kernel: the hook call stamped on each command', () => {
  it('is shared by the orders of one hook call and differs between calls, at one instant too', () => {
    const strategy = defineStrategy({
      name: 'slicer',
      params: z.object({}),
      onQuote: (ctx) =>
        Array.from({ length: 3 }, () => ctx.order.market({ sym: BTC, side: 'BUY', qty: 0.1 })),
    });
    const rig = aRecordingKernelRig([{ id: 's', strategy }]);
    rig.market.next(aQuote(1, 100));
    // Another quote at the same instant: another hook call, whatever the clock says.
    rig.market.next(aQuote(1, 100));
    expect(rig.denials.map((d) => d.reason)).toEqual([]);
    const calls = rig.port.submitted.map((c) => c.hookCall);
    expect(calls).toHaveLength(6);
    expect(calls.every((call) => typeof call === 'number')).toBe(true);
    expect(new Set(calls.slice(0, 3)).size).toBe(1);
    expect(new Set(calls.slice(3)).size).toBe(1);
    expect(calls[3]).not.toBe(calls[0]);
  });
});
