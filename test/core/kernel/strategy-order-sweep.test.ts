import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cancelStrategyOrders, defineStrategy } from '../../../core/kernel/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

describe('the sweep of a strategy’s orders (a fault, a kill-switch halt)', () => {
  it('cancels its orders and algo orders the venue has not acknowledged yet, not only the known ones', () => {
    const gate = new RiskGate();
    const strategy = defineStrategy({
      name: 'resting',
      params: z.object({}),
      onQuote: (ctx, quote) =>
        quote.ts === 5
          ? [
              ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 90 }),
              ctx.order.algo({
                sym: BTC,
                side: 'SELL',
                qty: 1,
                triggerPrice: 80,
                condition: 'LTE',
                price: 0,
              }),
            ]
          : undefined,
    });
    const rig = aRecordingKernelRig([{ id: 'a', strategy }], { gate });
    rig.market.next(aQuote(5, 100));
    const sent: { intent: { kind: string; target?: string; targets?: readonly string[]; sym?: string } }[] =
      [];
    const n = cancelStrategyOrders(
      rig.kernel,
      gate,
      { submit: (c: never) => sent.push(c) },
      ['a'],
      'keel-fault-1',
    );
    expect(n).toBe(2);
    expect(sent.map((c) => c.intent)).toEqual([
      { kind: 'cancelAlgoOrder', ref: 'keel-fault-1-a1', target: 'a-2', sym: BTC },
      { kind: 'cancelOrders', ref: 'keel-fault-1-1', sym: BTC, targets: ['a-1'] },
    ]);
  });
});
