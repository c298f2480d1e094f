import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StrategyContext } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { type AlgoOrder, D, type Intent, type UserEvent } from '../../../core/model/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { aRecordingKernelRig, type RecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

type Ctx = StrategyContext<unknown, unknown>;

/**
 * Places stop `stop-1` on the first quote; on each later quote returns what `act` gives (once per
 * quote time in `at`) and logs how its open algo orders read: `<ref>:<state>:<pending or ->`.
 */
function actor(seen: string[], act: (ctx: Ctx, ts: number) => Intent | undefined) {
  return defineStrategy({
    name: 'actor',
    params: z.object({}),
    onQuote: (ctx, quote) => {
      if (quote.ts === 1)
        return ctx.order.algo({
          sym: BTC,
          side: 'SELL',
          qty: 1,
          triggerPrice: 90,
          condition: 'LTE',
          ref: 'stop-1',
        });
      seen.push(
        ctx
          .openAlgoOrders()
          .map((a) => `${a.clientAlgoOrderId}:${a.state}:${a.pending ?? '-'}`)
          .join(','),
      );
      return act(ctx, quote.ts);
    },
  });
}

const reported = anAlgoOrder({ algoOrderId: 'A-9', clientAlgoOrderId: 'stop-1', createAt: 2, updateAt: 2 });

function update(algo: AlgoOrder, changes: Partial<AlgoOrder>): UserEvent {
  return anAlgoOrderUpdate({ ...algo, ...changes });
}

function rig(seen: string[], act: (ctx: Ctx, ts: number) => Intent | undefined): RecordingKernelRig {
  const r = aRecordingKernelRig([{ id: 'alpha', strategy: actor(seen, act) }]);
  r.market.next(aQuote(1, 100));
  r.port.emit(anAlgoOrderUpdate(reported));
  return r;
}

function refusal(ref: string, intentKind: 'cancelAlgoOrder' | 'replaceAlgoOrder', code: number): UserEvent {
  return { kind: 'commandRejected', ts: 4, recvTs: 4, ref, intentKind, code, message: 'no' };
}

describe('kernel: an algo order with a cancel or replace in flight reads pending', () => {
  it('reads CANCEL from the cancel’s sending until the venue reports it CANCELLED', () => {
    const seen: string[] = [];
    const r = rig(seen, (ctx, ts) => (ts === 2 ? ctx.order.cancelAlgo('stop-1') : undefined));
    r.market.next(aQuote(2, 100));
    r.market.next(aQuote(3, 100));
    expect(r.kernel.state.algoOrderByRef('stop-1')?.pending).toBe('CANCEL');
    r.port.emit(update(reported, { state: 'CANCELLED', updateAt: 4 }));
    expect(seen).toEqual(['stop-1:NEW:-', 'stop-1:NEW:CANCEL']);
    expect(r.kernel.state.algoOrderByRef('stop-1')?.pending).toBeUndefined();
  });

  it('reads NEW again when the venue refuses the cancel', () => {
    const seen: string[] = [];
    let cancelRef = '';
    const r = rig(seen, (ctx, ts) => {
      if (ts !== 2) return undefined;
      const cancel = ctx.order.cancelAlgo('stop-1');
      cancelRef = cancel.ref;
      return cancel;
    });
    r.market.next(aQuote(2, 100));
    r.port.emit(refusal(cancelRef, 'cancelAlgoOrder', 429));
    r.market.next(aQuote(3, 100));
    expect(seen).toEqual(['stop-1:NEW:-', 'stop-1:NEW:-']);
  });

  it('reads REPLACE until the venue reports the replaced terms, and CANCEL over it while a cancel follows', () => {
    const seen: string[] = [];
    const r = rig(seen, (ctx, ts) => {
      if (ts === 2) return ctx.order.replaceAlgo('stop-1', { triggerPrice: 95 });
      if (ts === 3) return ctx.order.cancelAlgo('stop-1');
      return undefined;
    });
    r.market.next(aQuote(2, 100));
    r.market.next(aQuote(3, 100));
    r.port.emit(update(reported, { triggerPrice: D(95), updateAt: 4 }));
    r.market.next(aQuote(5, 100));
    r.port.emit(update(reported, { state: 'CANCELLED', updateAt: 6 }));
    r.market.next(aQuote(7, 100));
    expect(seen).toEqual(['stop-1:NEW:-', 'stop-1:NEW:REPLACE', 'stop-1:NEW:CANCEL', '']);
  });

  it('reads REPLACE on through a repeat of the report before the replace, then NEW once it is answered', () => {
    const seen: string[] = [];
    const r = rig(seen, (ctx, ts) =>
      ts === 2 ? ctx.order.replaceAlgo('stop-1', { triggerPrice: 95 }) : undefined,
    );
    r.market.next(aQuote(2, 100));
    r.port.emit(anAlgoOrderUpdate(reported));
    r.market.next(aQuote(3, 100));
    r.port.emit(update(reported, { triggerPrice: D(95), updateAt: 4 }));
    r.market.next(aQuote(5, 100));
    expect(seen).toEqual(['stop-1:NEW:-', 'stop-1:NEW:REPLACE', 'stop-1:NEW:-']);
  });

  it('reads NEW again when the venue refuses the replace', () => {
    const seen: string[] = [];
    let replaceRef = '';
    const r = rig(seen, (ctx, ts) => {
      if (ts !== 2) return undefined;
      const replace = ctx.order.replaceAlgo('stop-1', { triggerPrice: 95 });
      replaceRef = replace.ref;
      return replace;
    });
    r.market.next(aQuote(2, 100));
    r.port.emit(refusal(replaceRef, 'replaceAlgoOrder', 400001));
    r.market.next(aQuote(3, 100));
    expect(seen).toEqual(['stop-1:NEW:-', 'stop-1:NEW:-']);
  });
});
