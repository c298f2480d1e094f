import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, type IntentGate } from '../../../core/kernel/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
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

  it('survives a custom gate that approves a command of its own making, with no stamp or a wrong one', () => {
    const strategy = defineStrategy({
      name: 'slicer',
      params: z.object({}),
      onQuote: (ctx) =>
        Array.from({ length: 2 }, () => ctx.order.market({ sym: BTC, side: 'BUY', qty: 0.1 })),
    });
    const inner = new RiskGate();
    let approvals = 0;
    // A user's gate that asks the stock gate about a command it builds itself: the first drops
    // the stamp, the next ones carry a made-up one.
    const gate: IntentGate = {
      evaluate: ({ strategyId, intent }, view) =>
        inner.evaluate(
          approvals++ === 0 ? { strategyId, intent } : { strategyId, intent, hookCall: -1 },
          view,
        ),
    };
    const rig = aRecordingKernelRig([{ id: 's', strategy }], { gate });
    rig.market.next(aQuote(1, 100));
    expect(rig.denials.map((d) => d.reason)).toEqual([]);
    const calls = rig.port.submitted.map((c) => c.hookCall);
    expect(calls).toHaveLength(2);
    expect(typeof calls[0]).toBe('number');
    expect(calls[0]).not.toBe(-1);
    expect(calls[1]).toBe(calls[0]);
  });
});
