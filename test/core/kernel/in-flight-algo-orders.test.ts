import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StrategyContext } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { type AlgoOrderType, COMMAND_OUTCOME_UNKNOWN, D, type Intent } from '../../../core/model/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aQuote, BTC, ETH } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

type Act = (ctx: StrategyContext<unknown, unknown>) => Intent | readonly Intent[] | undefined;

/** A strategy that, at the quote of each time given, sends what the act for that time returns. */
function scripted(acts: Readonly<Record<number, Act>>) {
  return defineStrategy({
    name: 'scripted',
    params: z.object({}),
    onQuote: (ctx, quote) => acts[quote.ts]?.(ctx),
  });
}

const stop: Act = (ctx) =>
  ctx.order.algo({ sym: BTC, side: 'SELL', qty: 1, triggerPrice: 90, condition: 'LTE', price: 0 });

/** Strategies a and b on a venue that answers nothing unless told; each sends what its script says. */
function twoStrategies(a: Readonly<Record<number, Act>>, b: Readonly<Record<number, Act>>) {
  const rig = aRecordingKernelRig([
    { id: 'a', strategy: scripted(a) },
    { id: 'b', strategy: scripted(b) },
  ]);
  const sentBy = (id: string) =>
    rig.port.submitted
      .filter((c) => c.strategyId === id)
      .map((c) => `${c.intent.kind}${'target' in c.intent ? ` ${c.intent.target}` : ''}`);
  return { ...rig, sentBy };
}

/** The venue's acknowledgement of an algo order Keel sent, as NEW. */
function acknowledge(
  clientAlgoOrderId: string,
  algoOrderId: string,
  at: number,
  algoOrderType: AlgoOrderType = 'TRIGGER',
) {
  return anAlgoOrderUpdate(
    anAlgoOrder({
      clientAlgoOrderId,
      algoOrderId,
      algoOrderType,
      reduceOnly: false,
      createAt: at,
      updateAt: at,
    }),
  );
}

describe('kernel: a cancel-all spares another strategy’s algo order still in flight', () => {
  it('cancels the caller’s own known algo orders one by one while another strategy’s algo order is unanswered', () => {
    const rig = twoStrategies({ 11: stop }, { 5: stop, 13: (ctx) => ctx.order.cancelAllAlgos({ sym: BTC }) });
    rig.market.next(aQuote(5, 100));
    rig.port.emit(acknowledge('b-1', 'B-1', 6));
    rig.market.next(aQuote(11, 100));
    rig.market.next(aQuote(13, 100));
    expect(rig.sentBy('b')).toEqual(['placeAlgoOrder', 'cancelAlgoOrder b-1']);
  });

  it('never goes venue-wide beside another strategy: the caller’s known and in-flight algo orders are cancelled one by one', () => {
    // The other strategy may have algo orders on the venue Keel has not heard of yet (the tp/sl
    // legs of an entry that just filled), which a venue-wide cancel-all would end.
    const rig = twoStrategies({}, { 5: stop, 11: stop, 13: (ctx) => ctx.order.cancelAllAlgos({ sym: BTC }) });
    rig.market.next(aQuote(5, 100));
    rig.port.emit(acknowledge('b-1', 'B-1', 6));
    rig.market.next(aQuote(11, 100));
    rig.market.next(aQuote(13, 100));
    expect(rig.sentBy('b')).toEqual([
      'placeAlgoOrder',
      'placeAlgoOrder',
      'cancelAlgoOrder b-1',
      'cancelAlgoOrder b-2',
    ]);
    const inFlightCancel = rig.port.submitted.find((c) => 'target' in c.intent && c.intent.target === 'b-2');
    expect(inFlightCancel?.intent.kind === 'cancelAlgoOrder' ? inFlightCancel.intent.sym : undefined).toBe(
      BTC,
    );
  });

  it('keeps counting an algo order whose outcome is unknown, since it may exist', () => {
    const rig = twoStrategies({ 11: stop }, { 5: stop, 13: (ctx) => ctx.order.cancelAllAlgos() });
    rig.market.next(aQuote(5, 100));
    rig.port.emit(acknowledge('b-1', 'B-1', 6));
    rig.market.next(aQuote(11, 100));
    rig.port.emit({
      kind: 'commandRejected',
      ts: 12,
      recvTs: 12,
      ref: 'a-1',
      intentKind: 'placeAlgoOrder',
      code: COMMAND_OUTCOME_UNKNOWN,
      message: 'timeout',
    });
    rig.market.next(aQuote(13, 100));
    expect(rig.sentBy('b')).toEqual(['placeAlgoOrder', 'cancelAlgoOrder b-1']);
  });

  it('goes venue-wide for a kernel’s only strategy, reaching its own in-flight algo order', () => {
    const rig = aRecordingKernelRig([
      { id: 'a', strategy: scripted({ 11: stop, 13: (ctx) => ctx.order.cancelAllAlgos({ sym: BTC }) }) },
    ]);
    rig.market.next(aQuote(11, 100));
    rig.market.next(aQuote(13, 100));
    expect(rig.port.submitted.map((c) => c.intent.kind)).toEqual(['placeAlgoOrder', 'cancelAllAlgoOrders']);
  });

  it('cancels only the caller’s algo orders the cancel-all reaches (other syms and types aside)', () => {
    const ethStop: Act = (ctx) =>
      ctx.order.algo({ sym: ETH, side: 'SELL', qty: 1, triggerPrice: 90, condition: 'LTE', price: 0 });
    const rig = twoStrategies(
      { 12: stop },
      {
        5: stop,
        11: ethStop,
        12: stop,
        13: (ctx) => [
          ctx.order.cancelAllAlgos({ sym: BTC, algoOrderType: 'TP_SL' }),
          ctx.order.cancelAllAlgos({ sym: BTC }),
        ],
      },
    );
    rig.market.next(aQuote(5, 100));
    rig.port.emit(acknowledge('b-1', 'B-1', 6, 'TP_SL'));
    rig.market.next(aQuote(11, 100));
    rig.market.next(aQuote(12, 100));
    rig.market.next(aQuote(13, 100));
    // b's ETH stop b-2 is out of both; its in-flight BTC TRIGGER stop b-3 only in the second.
    expect(rig.sentBy('b')).toEqual([
      'placeAlgoOrder',
      'placeAlgoOrder',
      'placeAlgoOrder',
      'cancelAlgoOrder b-1',
      'cancelAlgoOrder b-1',
      'cancelAlgoOrder b-3',
    ]);
    expect(rig.sentBy('a')).toEqual(['placeAlgoOrder']);
  });

  it('expands a plain cancel-all into the caller’s orders by reference, its own in-flight ones included, never another’s', () => {
    const rig = twoStrategies(
      { 11: (ctx) => ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 99 }) },
      {
        12: (ctx) => ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 98 }),
        13: (ctx) => ctx.order.cancelMany({ sym: BTC }),
      },
    );
    rig.market.next(aQuote(11, 100));
    rig.market.next(aQuote(12, 100));
    rig.market.next(aQuote(13, 100));
    const cancel = rig.port.submitted.find((c) => c.intent.kind === 'cancelOrders');
    expect(cancel?.strategyId).toBe('b');
    expect(cancel?.intent.kind === 'cancelOrders' ? cancel.intent.targets : undefined).toEqual(['b-1']);
  });

  it('never reaches another strategy’s tp/sl legs Keel has not heard of yet', () => {
    const rig = twoStrategies(
      { 5: stop, 13: (ctx) => ctx.order.cancelAllAlgos({ sym: BTC }) },
      {
        7: (ctx) =>
          ctx.order.market({
            sym: BTC,
            side: 'BUY',
            qty: 1,
            tp: { triggerPrice: 120 },
            sl: { triggerPrice: 80 },
          }),
      },
    );
    rig.market.next(aQuote(5, 100));
    rig.port.emit(acknowledge('a-1', 'A-1', 6));
    // b's entry fills: the venue now holds its legs, which no update has named yet.
    rig.market.next(aQuote(7, 100));
    const entry = rig.port.submitted.find((c) => c.strategyId === 'b')?.intent;
    rig.port.emit(
      anOrderUpdate(
        anOrder({
          clientOrderId: entry?.ref ?? '',
          orderId: 'B-1',
          orderType: 'MARKET',
          orderState: 'FILLED',
          executedQty: D('1'),
          executedAvgPrice: D('100'),
          createAt: 8,
          updateAt: 8,
        }),
      ),
    );
    rig.market.next(aQuote(13, 100));
    expect(rig.sentBy('a')).toEqual(['placeAlgoOrder', 'cancelAlgoOrder a-1']);
  });
});
