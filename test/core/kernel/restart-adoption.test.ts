import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StrategyContext } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

/** Resting orders the venue still holds when the session comes back: rest1's earlier run's, and one placed by hand. */
const leftOver = [
  anOrder({ orderId: 'v1', clientOrderId: 'rest1-tow6r1fr-1', sym: BTC, orderState: 'OPEN' }),
  anOrder({ orderId: 'v2', clientOrderId: 'rest1-tow6r1fr-2', sym: BTC, orderState: 'OPEN' }),
  anOrder({ orderId: 'v3', clientOrderId: 'manual-1', sym: BTC, orderState: 'OPEN' }),
  anOrder({ orderId: 'v4', clientOrderId: 'other-tow6r1fr-1', sym: BTC, orderState: 'OPEN' }),
];

/** On start, records what it sees as its own and tries to cancel every order it sees on BTC. */
function restarted(seen: string[], denied: string[]) {
  return defineStrategy({
    name: 'restarted',
    params: z.object({}),
    onStart: (ctx: StrategyContext<unknown, unknown>) => {
      seen.push(...ctx.openOrders(BTC).map((o) => o.clientOrderId));
      seen.push(...ctx.openAlgoOrders().map((a) => a.clientAlgoOrderId));
      return [
        ...ctx.allOpenOrders(BTC).map((o) => ctx.order.cancel(o.clientOrderId)),
        ctx.order.cancelAlgo('rest1-tow6r1fr-3'),
      ];
    },
    onDenied: (_ctx, denial) => {
      denied.push(`${denial.check}: ${denial.reason}`);
    },
  });
}

describe('kernel: a restarted run takes back its strategies’ orders by reference', () => {
  it('makes an earlier run’s orders and algo orders of the same strategy id its own, and no one else’s', async () => {
    const seen: string[] = [];
    const denied: string[] = [];
    let reconciled: () => void = () => undefined;
    const rig = aRecordingKernelRig([{ id: 'rest1', strategy: restarted(seen, denied) }], {
      runId: 'tow6ub4z',
      strategiesAfter: new Promise<void>((resolve) => {
        reconciled = resolve;
      }),
    });
    for (const order of leftOver) rig.port.emit(anOrderUpdate(order, 1));
    rig.port.emit(
      anAlgoOrderUpdate(
        anAlgoOrder({ algoOrderId: 'A-1', clientAlgoOrderId: 'rest1-tow6r1fr-3', sym: BTC }),
        1,
      ),
    );
    reconciled();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['rest1-tow6r1fr-1', 'rest1-tow6r1fr-2', 'rest1-tow6r1fr-3']);
    expect(rig.kernel.state.ownerOf('rest1-tow6r1fr-1')).toBe('rest1');
    expect(rig.kernel.state.ownerOf('manual-1')).toBeUndefined();
    expect(
      rig.port.submitted.map((c) => `${c.intent.kind} ${'target' in c.intent ? c.intent.target : ''}`),
    ).toEqual([
      'cancelOrder rest1-tow6r1fr-1',
      'cancelOrder rest1-tow6r1fr-2',
      'cancelAlgoOrder rest1-tow6r1fr-3',
    ]);
    expect(denied).toEqual([
      'kernel.ownership: order manual-1 was placed outside this run (Keel knows it from the venue, but no strategy of this run sent it), so strategy rest1 may not change it',
      'kernel.ownership: order other-tow6r1fr-1 was placed outside this run (Keel knows it from the venue, but no strategy of this run sent it), so strategy rest1 may not change it',
    ]);
  });

  it('adopts nothing by reference in an untagged run (a backtest)', async () => {
    const seen: string[] = [];
    const rig = aRecordingKernelRig([{ id: 'rest1', strategy: restarted(seen, []) }], {
      strategiesAfter: Promise.resolve(),
    });
    rig.port.emit(
      anOrderUpdate(anOrder({ clientOrderId: 'rest1-tow6r1fr-1', sym: BTC, orderState: 'OPEN' }), 1),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(rig.kernel.state.ownerOf('rest1-tow6r1fr-1')).toBeUndefined();
  });
});
