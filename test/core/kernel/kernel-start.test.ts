import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { BTC } from '../../kit/kernel-events.ts';

describe('kernel start', () => {
  it('hears a venue that answers synchronously the intents of onStart', () => {
    const strategy = defineStrategy({
      name: 'starter',
      params: z.object({}),
      onStart: (ctx) => ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 100 }),
    });
    const { kernel } = aKernelRig([{ id: 's', strategy, params: {} }]);
    expect(kernel.state.orderByRef('s-1')?.orderState).toBe('OPEN');
    kernel.stop();
  });
});
