import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StrategyContext } from '../../../core/kernel/index.ts';
import { type AlgoChildGivenUp, AWAITING_ALGO_CHILD_MS, defineStrategy } from '../../../core/kernel/index.ts';
import { type AlgoOrder, D, type Order, type UserEvent } from '../../../core/model/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { anExecution } from '../../kit/execution-builders.ts';
import { aRecordingKernelRig, type RecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

/**
 * On the first quote places what `place` says (alpha: a stop `stop-1`), then logs every order
 * update and fill it is told of as `<strategy> order|fill <orderId> ...`.
 */
function placer(log: string[], place: (ctx: StrategyContext<unknown, unknown>) => unknown) {
  return defineStrategy({
    name: 'placer',
    params: z.object({}),
    onQuote: (ctx, quote) => (quote.ts === 1 ? (place(ctx) as never) : undefined),
    onOrder: (ctx, order) => {
      log.push(`${ctx.id} order ${order.orderId} ${order.orderState}`);
    },
    onFill: (ctx, fill) => {
      log.push(`${ctx.id} fill ${fill.orderId} ${fill.quantity.toFixed()}`);
    },
  });
}

/** alpha places stop `stop-1`; beta places nothing. */
function rigWithStop(log: string[]): RecordingKernelRig {
  const rig = aRecordingKernelRig([
    {
      id: 'alpha',
      strategy: placer(log, (ctx) =>
        ctx.order.algo({ sym: BTC, side: 'SELL', qty: 1, triggerPrice: 90, condition: 'LTE', ref: 'stop-1' }),
      ),
    },
    { id: 'beta', strategy: placer(log, () => undefined) },
  ]);
  rig.market.next(aQuote(1, 100));
  return rig;
}

/** The stop as the venue reports it: NEW (its place reply), as venue algo order A-9. */
const stop = anAlgoOrder({ algoOrderId: 'A-9', clientAlgoOrderId: 'stop-1', createAt: 2, updateAt: 2 });

/** The order A-9 sends when it fires, named `ref` by the venue (it links A-9 by algoOrderId). */
function firedOrder(ref: string, overrides: Partial<Order> = {}): Order {
  return anOrder({
    orderId: 'v9',
    clientOrderId: ref,
    side: 'SELL',
    orderType: 'MARKET',
    orderState: 'FILLED',
    executedQty: D(1),
    limitPrice: D(0),
    algoOrderId: 'A-9',
    createAt: 3,
    updateAt: 3,
    ...overrides,
  });
}

function fillOf(ref: string, orderId = 'v9'): UserEvent {
  return {
    kind: 'execution',
    ts: 3,
    recvTs: 3,
    execution: anExecution({
      side: 'SELL',
      quantity: '1',
      price: '90',
      timestamp: 3,
      transactionId: `x-${orderId}`,
      orderId,
      clientOrderId: ref,
    }),
  };
}

function triggered(algo: AlgoOrder, orderId = 'v9'): UserEvent {
  return anAlgoOrderUpdate({ ...algo, state: 'TRIGGERED', orderId, updateAt: 3 });
}

/**
 * A stop whose trigger is met at once fires before its place reply reaches Keel (the private
 * socket is faster than REST): the order it sent and that order's fill come first, naming the stop
 * only by its venue id (algoOrderId) — with no reference, or with the venue's fallback name
 * `<algoOrderId>-trig`. The strategy must still hear of both, once its stop is reported.
 */
describe('kernel: an algo order’s order and fill reported before the algo order itself', () => {
  it.each([
    ['no reference', ''],
    ['the venue’s name after the algo order’s id', 'A-9-trig'],
  ])('tells the strategy of them, in order, once its stop is reported (%s)', (_, ref) => {
    const log: string[] = [];
    const rig = rigWithStop(log);
    rig.port.emit(anOrderUpdate(firedOrder(ref)));
    rig.port.emit(fillOf(ref));
    expect(log).toEqual([]);
    rig.port.emit(anAlgoOrderUpdate(stop));
    rig.port.emit(triggered(stop));
    expect(log).toEqual(['alpha order v9 FILLED', 'alpha fill v9 1']);
    expect(rig.kernel.state.ownerOf(ref === '' ? '\u0000v9' : ref)).toBe('alpha');
    expect(rig.kernel.state.orders.openAlgo.size).toBe(0);
  });

  it('tells the strategy of the order and fill of its stop without a reference when the stop came first', () => {
    const log: string[] = [];
    const rig = rigWithStop(log);
    rig.port.emit(anAlgoOrderUpdate(stop));
    rig.port.emit(anOrderUpdate(firedOrder('')));
    rig.port.emit(fillOf(''));
    expect(log).toEqual(['alpha order v9 FILLED', 'alpha fill v9 1']);
  });

  it('lists a resting order the stop sent among the strategy’s open orders once the stop is reported', () => {
    const log: string[] = [];
    const rig = rigWithStop(log);
    const resting = firedOrder('', {
      orderType: 'LIMIT',
      limitPrice: D(89),
      orderState: 'OPEN',
      executedQty: D(0),
    });
    rig.port.emit(anOrderUpdate(resting));
    expect(rig.kernel.state.openOrders('alpha')).toEqual([]);
    rig.port.emit(anAlgoOrderUpdate(stop));
    expect(rig.kernel.state.openOrders('alpha').map((o) => o.orderId)).toEqual(['v9']);
    expect(rig.kernel.state.openOrders('beta')).toEqual([]);
    rig.port.emit(anOrderUpdate({ ...resting, orderState: 'CANCELLED', updateAt: 4 }));
    expect(rig.kernel.state.openOrders('alpha')).toEqual([]);
    expect(log).toEqual(['alpha order v9 OPEN', 'alpha order v9 CANCELLED']);
  });

  it('tells the strategy of the order a stop-loss attached to its entry sent before that stop-loss was reported', () => {
    const log: string[] = [];
    const rig = aRecordingKernelRig([
      {
        id: 'alpha',
        strategy: placer(log, (ctx) =>
          ctx.order.market({ sym: BTC, side: 'BUY', qty: 1, sl: { triggerPrice: 90 }, ref: 'entry-1' }),
        ),
      },
    ]);
    rig.market.next(aQuote(1, 100));
    rig.port.emit(
      anOrderUpdate(
        anOrder({
          orderId: 'v1',
          clientOrderId: 'entry-1',
          orderState: 'FILLED',
          executedQty: D(1),
          orderType: 'MARKET',
          createAt: 1,
          updateAt: 1,
        }),
      ),
    );
    log.length = 0;
    const leg = anAlgoOrder({
      algoOrderId: 'A-7',
      clientAlgoOrderId: '',
      algoOrderType: 'TP_SL',
      attachedOrderId: 'v1',
      createAt: 2,
      updateAt: 2,
    });
    rig.port.emit(anOrderUpdate(firedOrder('', { orderId: 'v7', algoOrderId: 'A-7' })));
    rig.port.emit(fillOf('', 'v7'));
    rig.port.emit(anAlgoOrderUpdate(leg));
    rig.port.emit(triggered(leg, 'v7'));
    expect(log).toEqual(['alpha order v7 FILLED', 'alpha fill v7 1']);
  });

  it('tells no strategy of the order of an algo order none of them placed, and forgets it', () => {
    const log: string[] = [];
    const rig = rigWithStop(log);
    rig.port.emit(anOrderUpdate(firedOrder('', { algoOrderId: 'A-by-hand' })));
    rig.port.emit(anAlgoOrderUpdate(anAlgoOrder({ algoOrderId: 'A-by-hand', clientAlgoOrderId: 'by-hand' })));
    expect(log).toEqual([]);
    expect(rig.kernel.state.orders.awaitsAlgo('\u0000v9')).toBe(false);
  });
});

/**
 * An algo order the venue never reports (one placed by hand, or whose report was lost) must not
 * keep the orders it sent waiting until a thousand more came: after {@link AWAITING_ALGO_CHILD_MS}
 * of the run's time they are given up to no strategy, as the session's journal records them, and
 * each is reported so a session logs and counts it.
 */
describe('kernel: an algo order’s order whose algo order is never reported', () => {
  function givenUp(rig: RecordingKernelRig): AlgoChildGivenUp[] {
    const reports: AlgoChildGivenUp[] = [];
    rig.kernel.algoChildrenGivenUp.subscribe((report) => reports.push(report));
    return reports;
  }

  it('is given up after the wait, with its fill, even when no User Data comes, and reported once', () => {
    const log: string[] = [];
    const rig = rigWithStop(log);
    const reports = givenUp(rig);
    rig.port.emit(anOrderUpdate(firedOrder('')));
    rig.port.emit(fillOf(''));
    rig.market.next(aQuote(3 + AWAITING_ALGO_CHILD_MS, 100));
    expect(rig.kernel.state.orders.awaitsAlgo('\u0000v9')).toBe(true);
    expect(reports).toEqual([]);
    rig.market.next(aQuote(3 + AWAITING_ALGO_CHILD_MS + 1, 100));
    expect(rig.kernel.state.orders.awaitsAlgo('\u0000v9')).toBe(false);
    expect(reports).toEqual([
      expect.objectContaining({
        orderId: 'v9',
        clientOrderId: '',
        sym: BTC,
        algoOrderId: 'A-9',
        heldAt: 3,
        dropped: 2,
        ts: 3 + AWAITING_ALGO_CHILD_MS + 1,
      }),
    ]);
    expect(reports[0]?.reason).toContain('A-9');
    rig.market.next(aQuote(3 + 3 * AWAITING_ALGO_CHILD_MS, 100));
    expect(reports).toHaveLength(1);
  });

  it('tells no strategy of what it held when the algo order is reported after all, later', () => {
    const log: string[] = [];
    const rig = rigWithStop(log);
    const reports = givenUp(rig);
    rig.port.emit(anOrderUpdate(firedOrder('A-9-trig')));
    rig.port.emit(fillOf('A-9-trig'));
    const late = 3 + AWAITING_ALGO_CHILD_MS + 5_000;
    rig.port.emit(anAlgoOrderUpdate({ ...stop, createAt: late, updateAt: late }));
    expect(reports.map((r) => [r.clientOrderId, r.dropped])).toEqual([['A-9-trig', 2]]);
    expect(log).toEqual([]);
  });

  // Pushed out by the thousand-order bound before its wait ran out, it reached no strategy unreported.
  it('is reported when a thousand newer orders waiting for their algo orders push it out first', () => {
    const log: string[] = [];
    const rig = rigWithStop(log);
    const reports = givenUp(rig);
    rig.port.emit(anOrderUpdate(firedOrder('')));
    for (let n = 0; n < 1_000; n++)
      rig.port.emit(anOrderUpdate(firedOrder('', { orderId: `w${n}`, algoOrderId: `B-${n}` })));
    expect(reports.map((r) => [r.cause, r.orderId, r.algoOrderId, r.dropped])).toEqual([
      ['capacity', 'v9', 'A-9', 1],
    ]);
    expect(reports[0]?.reason).toContain('1000 newer orders waiting for their algo orders pushed it out');
    rig.port.emit(anAlgoOrderUpdate(stop));
    expect(log).toEqual([]);
  });

  // The thousand held updates and fills filled up before the thousand orders did: the oldest
  // update was dropped unreported, and the strategy later heard of the fill without its order.
  it('is reported, with all held for it, when a thousand newer updates and fills push out what it held', () => {
    const log: string[] = [];
    const rig = rigWithStop(log);
    const reports = givenUp(rig);
    rig.port.emit(anOrderUpdate(firedOrder('')));
    rig.port.emit(fillOf(''));
    for (let n = 0; n < 500; n++) {
      rig.port.emit(anOrderUpdate(firedOrder('', { orderId: `w${n}`, algoOrderId: `B-${n}` })));
      rig.port.emit(fillOf('', `w${n}`));
    }
    expect(reports.map((r) => [r.cause, r.orderId, r.algoOrderId, r.dropped])).toEqual([
      ['backlog', 'v9', 'A-9', 2],
    ]);
    expect(reports[0]?.reason).toContain('1000 newer updates and fills held for orders waiting');
    rig.port.emit(anAlgoOrderUpdate(stop));
    expect(log).toEqual([]);
    expect(rig.kernel.state.orders.awaitsAlgo('\u0000w0')).toBe(true);
  });

  it('still reaches its strategy when the algo order is reported within the wait', () => {
    const log: string[] = [];
    const rig = rigWithStop(log);
    const reports = givenUp(rig);
    rig.port.emit(anOrderUpdate(firedOrder('')));
    rig.port.emit(fillOf(''));
    const inTime = 3 + AWAITING_ALGO_CHILD_MS;
    rig.port.emit(anAlgoOrderUpdate({ ...stop, createAt: inTime, updateAt: inTime }));
    expect(log).toEqual(['alpha order v9 FILLED', 'alpha fill v9 1']);
    expect(reports).toEqual([]);
  });
});
