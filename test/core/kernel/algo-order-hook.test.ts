import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StrategyContext } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { type AlgoOrder, D, type Intent, type UserEvent } from '../../../core/model/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { aRecordingKernelRig, type RecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aPositionUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

type Ctx = StrategyContext<unknown, unknown>;

/**
 * On the first quote returns what `place` gives, and on a timer what `later` gives; logs every
 * algo order report (`onAlgoOrder` and `ctx.algoOrders()`) and every order update it is told of.
 */
function algoWatcher(log: string[], place: (ctx: Ctx) => Intent | Intent[], later?: (ctx: Ctx) => Intent) {
  return defineStrategy({
    name: 'algo-watcher',
    params: z.object({}),
    setup: (ctx) => {
      ctx.algoOrders().subscribe((a) => log.push(`${ctx.id} stream ${a.clientAlgoOrderId} ${a.state}`));
      return undefined;
    },
    onQuote: (ctx, quote) => (quote.ts === 1 ? place(ctx) : later?.(ctx)),
    onAlgoOrder: (ctx, algo) => {
      log.push(
        `${ctx.id} algo ${algo.clientAlgoOrderId} ${algo.state}${algo.cancelReason === undefined ? '' : ` ${algo.cancelReason}`}`,
      );
    },
    onOrder: (ctx, order) => {
      log.push(`${ctx.id} order ${order.orderId} ${order.orderState} algoRef=${order.algoRef ?? '-'}`);
    },
  });
}

const stop = (ref: string) => (ctx: Ctx) =>
  ctx.order.algo({ sym: BTC, side: 'SELL', qty: 1, triggerPrice: 90, condition: 'LTE', ref });

function rig(log: string[], later?: (ctx: Ctx) => Intent): RecordingKernelRig {
  const r = aRecordingKernelRig([
    { id: 'alpha', strategy: algoWatcher(log, stop('stop-1'), later) },
    { id: 'beta', strategy: algoWatcher(log, () => []) },
  ]);
  r.market.next(aQuote(1, 100));
  return r;
}

const reported = anAlgoOrder({ algoOrderId: 'A-9', clientAlgoOrderId: 'stop-1', createAt: 2, updateAt: 2 });

function update(algo: AlgoOrder, changes: Partial<AlgoOrder>): UserEvent {
  return anAlgoOrderUpdate({ ...algo, ...changes });
}

const firedOrder = anOrder({
  orderId: 'v9',
  clientOrderId: 'A-9-trig',
  side: 'SELL',
  orderType: 'MARKET',
  orderState: 'NEW',
  limitPrice: D(0),
  algoOrderId: 'A-9',
  createAt: 3,
  updateAt: 3,
});

describe('kernel: a strategy hears what its algo orders did', () => {
  it('tells the owner of each report of its algo order, once, and its fired order carries algoRef', () => {
    const log: string[] = [];
    const r = rig(log);
    r.port.emit(anAlgoOrderUpdate(reported));
    r.port.emit(anAlgoOrderUpdate(reported));
    r.port.emit(update(reported, { state: 'TRIGGERED', orderId: 'v9', updateAt: 3 }));
    r.port.emit(anOrderUpdate(firedOrder));
    expect(log).toEqual([
      'alpha algo stop-1 NEW',
      'alpha stream stop-1 NEW',
      'alpha algo stop-1 TRIGGERED',
      'alpha stream stop-1 TRIGGERED',
      'alpha order v9 NEW algoRef=stop-1',
    ]);
    expect(r.kernel.state.orderByRef('A-9-trig')?.algoRef).toBe('stop-1');
  });

  it('sets algoRef on an order that came before its algo order’s report, as it is delivered', () => {
    const log: string[] = [];
    const r = rig(log);
    r.port.emit(anOrderUpdate(firedOrder));
    r.port.emit(anAlgoOrderUpdate(reported));
    expect(log).toEqual([
      'alpha algo stop-1 NEW',
      'alpha stream stop-1 NEW',
      'alpha order v9 NEW algoRef=stop-1',
    ]);
    expect(r.kernel.state.orderByRef('A-9-trig')?.algoRef).toBe('stop-1');
  });

  it('tells a FAILED algo order, and the order it could not place carries algoRef', () => {
    const log: string[] = [];
    const r = rig(log);
    r.port.emit(anAlgoOrderUpdate(reported));
    r.port.emit(update(reported, { state: 'FAILED', orderId: 'v9', updateAt: 3 }));
    r.port.emit(anOrderUpdate({ ...firedOrder, orderState: 'REJECTED', reason: 'INSUFFICIENT_MARGIN' }));
    expect(log.filter((line) => !line.includes('stream'))).toEqual([
      'alpha algo stop-1 NEW',
      'alpha algo stop-1 FAILED',
      'alpha order v9 REJECTED algoRef=stop-1',
    ]);
  });

  it('says a CANCELLED algo order was the strategy’s own cancel', () => {
    const log: string[] = [];
    const r = rig(log, (ctx) => ctx.order.cancelAlgo('stop-1'));
    r.port.emit(anAlgoOrderUpdate(reported));
    r.market.next(aQuote(2, 100));
    r.port.emit(update(reported, { state: 'CANCELLED', updateAt: 4 }));
    expect(log).toContain('alpha algo stop-1 CANCELLED cancel');
    expect(r.kernel.state.algoOrderByRef('stop-1')?.cancelReason).toBe('cancel');
  });

  it('says a reduce-only algo order cancelled after a position close on its sym went with the close', () => {
    const log: string[] = [];
    const r = rig(log, (ctx) => ctx.order.closePosition(BTC));
    r.port.emit(aPositionUpdate(2, '1'));
    r.port.emit(anAlgoOrderUpdate(reported));
    r.market.next(aQuote(2, 100));
    expect(r.port.submitted.map((c) => c.intent.kind)).toContain('closePosition');
    r.port.emit(update(reported, { state: 'CANCELLED', updateAt: 4 }));
    expect(log).toContain('alpha algo stop-1 CANCELLED closePosition');
  });

  it('gives no reason for an algo order the venue cancelled on its own', () => {
    const log: string[] = [];
    const r = rig(log);
    r.port.emit(anAlgoOrderUpdate(reported));
    r.port.emit(update(reported, { state: 'CANCELLED', updateAt: 4 }));
    expect(log).toContain('alpha algo stop-1 CANCELLED');
    expect(r.kernel.state.algoOrderByRef('stop-1')?.cancelReason).toBeUndefined();
  });

  it('says the take-profit attached to an order was cancelled because its stop-loss fired', () => {
    const log: string[] = [];
    const r = aRecordingKernelRig([
      {
        id: 'alpha',
        strategy: algoWatcher(log, (ctx) =>
          ctx.order.market({
            sym: BTC,
            side: 'BUY',
            qty: 1,
            ref: 'entry',
            tp: { triggerPrice: 110 },
            sl: { triggerPrice: 90 },
          }),
        ),
      },
    ]);
    r.market.next(aQuote(1, 100));
    const leg = (ref: string, changes: Partial<AlgoOrder>) =>
      anAlgoOrder({ clientAlgoOrderId: ref, attachedOrderId: 'v1', createAt: 2, updateAt: 2, ...changes });
    const tp = leg('entry-tp', { algoOrderId: 'A-1', conditionType: 'GTE', triggerPrice: D(110) });
    const sl = leg('entry-sl', { algoOrderId: 'A-2' });
    r.port.emit(anOrderUpdate(anOrder({ orderId: 'v1', clientOrderId: 'entry', orderState: 'FILLED' })));
    r.port.emit(anAlgoOrderUpdate(tp));
    r.port.emit(anAlgoOrderUpdate(sl));
    r.port.emit(update(sl, { state: 'TRIGGERED', orderId: 'v2', updateAt: 3 }));
    r.port.emit(update(tp, { state: 'CANCELLED', updateAt: 3 }));
    expect(log.filter((line) => line.includes(' algo '))).toEqual([
      'alpha algo entry-tp NEW',
      'alpha algo entry-sl NEW',
      'alpha algo entry-sl TRIGGERED',
      'alpha algo entry-tp CANCELLED siblingTriggered',
    ]);
  });

  it('reads an algo order by its reference, finished too, whoever owns it', () => {
    const read: string[] = [];
    const reader = defineStrategy({
      name: 'reader',
      params: z.object({}),
      onQuote: (ctx) => {
        read.push(`${ctx.algoOrderByRef('stop-1')?.state} ${ctx.algoOrderByRef('nope')?.state}`);
      },
    });
    const r = aRecordingKernelRig([
      { id: 'alpha', strategy: algoWatcher([], stop('stop-1')) },
      { id: 'beta', strategy: reader },
    ]);
    r.market.next(aQuote(1, 100));
    r.port.emit(anAlgoOrderUpdate(reported));
    r.port.emit(update(reported, { state: 'TRIGGERED', orderId: 'v9', updateAt: 3 }));
    r.market.next(aQuote(2, 100));
    expect(read).toEqual(['undefined undefined', 'TRIGGERED undefined']);
  });
});
