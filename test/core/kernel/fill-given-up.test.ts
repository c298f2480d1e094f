import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, FILL_AWAITING_ORDER_MS, type FillGivenUp } from '../../../core/kernel/index.ts';
import type { UserEvent } from '../../../core/model/index.ts';
import { anExecution } from '../../kit/execution-builders.ts';
import { aRecordingKernelRig, type RecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

/** A strategy that places nothing. */
const idle = defineStrategy({ name: 'idle', params: z.object({}) });

/** A kernel with one idle strategy, its clock at 1, and the fills it gives up. */
function rigWithReports(): { readonly rig: RecordingKernelRig; readonly reports: FillGivenUp[] } {
  const rig = aRecordingKernelRig([{ id: 'alpha', strategy: idle }]);
  rig.market.next(aQuote(1, 100));
  const reports: FillGivenUp[] = [];
  rig.kernel.fillsGivenUp.subscribe((report) => reports.push(report));
  return { rig, reports };
}

/** A fill at `ts` of venue order `orderId`, which the kernel has not seen, with no reference. */
function fillOf(orderId: string, ts: number): UserEvent {
  return {
    kind: 'execution',
    ts,
    recvTs: ts,
    execution: anExecution({
      side: 'BUY',
      quantity: '0.5',
      price: '100',
      timestamp: ts,
      transactionId: `x-${orderId}`,
      orderId,
      clientOrderId: '',
    }),
  };
}

/**
 * A fill that came before its order's first update waits for it; one whose update never comes was
 * dropped only when some later order update came, and silently: nothing said a fill reached no strategy.
 */
describe('kernel: a fill whose order’s first update never comes', () => {
  it('is given up once the wait is over, on the run’s clock with no User Data, and reported once with its ids', () => {
    const { rig, reports } = rigWithReports();
    rig.port.emit(fillOf('v5', 3));
    rig.market.next(aQuote(3 + FILL_AWAITING_ORDER_MS, 100));
    expect(reports).toEqual([]);
    rig.market.next(aQuote(3 + FILL_AWAITING_ORDER_MS + 1, 100));
    expect(reports).toEqual([
      expect.objectContaining({
        cause: 'timeout',
        transactionId: 'x-v5',
        orderId: 'v5',
        clientOrderId: '',
        sym: BTC,
        side: 'BUY',
        qty: '0.5',
        price: '100',
        heldAt: 3,
        ts: 3 + FILL_AWAITING_ORDER_MS + 1,
      }),
    ]);
    expect(reports[0]?.reason).toBe(
      `fill x-v5 of order v5 on ${BTC} (BUY 0.5 at 100) came before its order, whose first update did not come within 10 s: no strategy was told of it`,
    );
    rig.market.next(aQuote(3 + 3 * FILL_AWAITING_ORDER_MS, 100));
    expect(reports).toHaveLength(1);
  });

  it('is reported when a thousand newer fills waiting for their orders push it out first', () => {
    const { rig, reports } = rigWithReports();
    for (let n = 0; n <= 1_000; n++) rig.port.emit(fillOf(`v${n}`, 3));
    expect(reports.map((report) => [report.cause, report.orderId])).toEqual([['capacity', 'v0']]);
    expect(reports[0]?.reason).toContain('1000 newer fills waiting for their orders pushed it out');
  });
});
