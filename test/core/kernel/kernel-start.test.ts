import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { aKernelRig, aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aPositionUpdate, BTC } from '../../kit/kernel-events.ts';

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

describe('kernel start after a first reconciliation', () => {
  it('folds the User Data that arrives before the strategies start, so onStart sees the book, and delivers none of it', async () => {
    const seen: string[] = [];
    const strategy = defineStrategy({
      name: 'starter',
      params: z.object({}),
      onStart: (ctx) => {
        seen.push(`onStart netQty=${ctx.netQty(BTC).toFixed()}`);
      },
      onPosition: (_ctx, position) => {
        seen.push(`onPosition ${position.positionQty.toFixed()}`);
      },
    });
    let reconciled: () => void = () => {};
    const strategiesAfter = new Promise<void>((resolve) => (reconciled = resolve));
    const { kernel, port } = aRecordingKernelRig([{ id: 's', strategy }], { strategiesAfter });
    port.emit(aPositionUpdate(1, '0.02'));
    expect(kernel.state.positionQty(BTC, 'NONE').toFixed()).toBe('0.02');
    expect(seen).toEqual([]);
    reconciled();
    await Promise.resolve();
    port.emit(aPositionUpdate(2, '0.03'));
    expect(seen).toEqual(['onStart netQty=0.02', 'onPosition 0.03']);
  });

  it('never calls onStop of strategies that did not start', () => {
    const seen: string[] = [];
    const strategy = defineStrategy({
      name: 'starter',
      params: z.object({}),
      onStop: () => {
        seen.push('onStop');
      },
    });
    const { kernel } = aRecordingKernelRig([{ id: 's', strategy }], {
      strategiesAfter: new Promise(() => {}),
    });
    kernel.stop();
    expect(seen).toEqual([]);
  });
});
