import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { AlgoOrderType } from '../../../core/model/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

/** A plugin (JavaScript, no type checking) that cancels all its algo orders of `algoOrderType` at its first quote. */
function cancelAllOf(algoOrderType: string) {
  return defineStrategy({
    name: 'plugin',
    params: z.object({}),
    onQuote: (ctx, quote) =>
      quote.ts === 5
        ? ctx.order.cancelAllAlgos({ sym: BTC, algoOrderType: algoOrderType as AlgoOrderType })
        : undefined,
  });
}

describe('kernel: a cancel-all of algo orders with a type outside the venue’s values', () => {
  it('goes to the venue as it is, which refuses it (400001), instead of cancelling nothing without a word', () => {
    const rig = aRecordingKernelRig([{ id: 's', strategy: cancelAllOf('trigger') }]);
    rig.market.next(aQuote(5, 100));
    expect(rig.port.submitted.map((c) => c.intent)).toEqual([
      { kind: 'cancelAllAlgoOrders', ref: 's-1', sym: BTC, algoOrderType: 'trigger' },
    ]);
    expect(rig.denials).toEqual([]);
  });

  it('with a known type and nothing to cancel, is still a quiet no-op', () => {
    const rig = aRecordingKernelRig([{ id: 's', strategy: cancelAllOf('TRIGGER') }]);
    rig.market.next(aQuote(5, 100));
    expect({ denials: rig.denials, submitted: rig.port.submitted }).toEqual({ denials: [], submitted: [] });
  });
});
