import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import { UserDataJournal } from '../../../config/compose/user-data-journal.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D, type UserEvent } from '../../../core/model/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { anExecution } from '../../kit/execution-builders.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

const stopPlacer = defineStrategy({
  name: 'stop-placer',
  params: z.object({}),
  onQuote: (ctx, quote) =>
    quote.ts === 1
      ? ctx.order.algo({ sym: BTC, side: 'SELL', qty: 1, triggerPrice: 90, condition: 'LTE', ref: 'stop-1' })
      : undefined,
});

/**
 * A session's journal names the strategy of each order and fill in the results, asking the kernel
 * (it sees each event just before the kernel does, as a venue session subscribes it first). The
 * order a strategy's stop sent, reported with no reference (the venue links it by algoOrderId
 * only), and its fill were recorded with no strategy: the journal asked the kernel for the owner of
 * reference '' and not of the order.
 */
describe("a session's journal: the order a stop sent, with no reference", () => {
  it('records the order and its fill as the stop’s strategy’s', () => {
    const rig = aRecordingKernelRig([{ id: 'alpha', strategy: stopPlacer }]);
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined, (ref) =>
      rig.kernel.state.ownerOf(ref),
    );
    const push = (event: UserEvent) => {
      journal.observe(event);
      rig.port.emit(event);
    };
    rig.market.next(aQuote(1, 100));
    const stop = anAlgoOrder({ algoOrderId: 'A-9', clientAlgoOrderId: 'stop-1', createAt: 2, updateAt: 2 });
    push(anAlgoOrderUpdate(stop));
    const order = anOrder({
      orderId: 'v9',
      clientOrderId: '',
      side: 'SELL',
      orderType: 'MARKET',
      orderState: 'FILLED',
      executedQty: D(1),
      limitPrice: D(0),
      algoOrderId: 'A-9',
      createAt: 3,
      updateAt: 3,
    });
    push(anOrderUpdate(order));
    push({
      kind: 'execution',
      ts: 3,
      recvTs: 3,
      execution: anExecution({
        side: 'SELL',
        quantity: '1',
        price: '90',
        timestamp: 3,
        transactionId: 'x-9',
        orderId: 'v9',
        clientOrderId: '',
      }),
    });
    const done = journal.finish();
    expect([...done.fills].map((f) => [f.transactionId, f.strategyId])).toEqual([['x-9', 'alpha']]);
    expect([...done.orders].map((o) => [o.orderId, o.strategyId])).toEqual([['v9', 'alpha']]);
    journal.dispose();
  });
});
