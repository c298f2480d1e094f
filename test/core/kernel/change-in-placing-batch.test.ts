import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StrategyContext } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { Intent } from '../../../core/model/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

/** A strategy returning what `act` gives on each quote, by the quote's ts. */
function scripted(
  act: (ctx: StrategyContext<unknown, unknown>, ts: number) => Intent | readonly Intent[] | undefined,
) {
  return defineStrategy({
    name: 'scripted',
    params: z.object({}),
    onQuote: (ctx, quote) => act(ctx, quote.ts),
  });
}

const rest = (ctx: StrategyContext<unknown, unknown>) =>
  ctx.order.limit({ sym: BTC, side: 'SELL', qty: 0.1, price: 105, ref: 'lc-race-1' });

/** What the port was sent, without the modify's and cancel's own references. */
function sentTerms(rig: ReturnType<typeof aRecordingKernelRig>) {
  return rig.port.submitted.map(({ intent }) => ({
    ...intent,
    ref: intent.kind === 'placeOrder' ? intent.ref : '',
  }));
}

describe('kernel: a modify or cancel of an order placed earlier in the same returned batch', () => {
  it('is sent as one from a later hook while the order is PENDING_NEW: its sym, and its price rounded as asked', () => {
    const batch = aRecordingKernelRig([
      {
        id: 'lc',
        strategy: scripted((ctx, ts) =>
          ts === 1
            ? [rest(ctx), ctx.order.modify('lc-race-1', { price: 104.04, qty: 0.2, round: true })]
            : undefined,
        ),
      },
    ]);
    batch.market.next(aQuote(1, 100));
    const later = aRecordingKernelRig([
      {
        id: 'lc',
        strategy: scripted((ctx, ts) =>
          ts === 1 ? rest(ctx) : ctx.order.modify('lc-race-1', { price: 104.04, qty: 0.2, round: true }),
        ),
      },
    ]);
    later.market.next(aQuote(1, 100));
    expect(later.kernel.state.orderByRef('lc-race-1')?.orderState).toBe('PENDING_NEW');
    later.market.next(aQuote(2, 100));
    expect(batch.denials).toEqual([]);
    expect(later.denials).toEqual([]);
    expect(sentTerms(batch)).toEqual(sentTerms(later));
    const modify = batch.port.submitted[1]?.intent;
    expect(modify).toMatchObject({ kind: 'modifyOrder', sym: BTC });
    expect(modify?.kind === 'modifyOrder' ? modify.price?.toFixed() : undefined).toBe('104.1');
  });

  it('sends a modify and a cancel returned after the placement, in that order, each naming the sym', () => {
    const rig = aRecordingKernelRig([
      {
        id: 'lc',
        strategy: scripted((ctx, ts) =>
          ts === 1
            ? [rest(ctx), ctx.order.modify('lc-race-1', { price: 104 }), ctx.order.cancel('lc-race-1')]
            : undefined,
        ),
      },
    ]);
    rig.market.next(aQuote(1, 100));
    expect(rig.denials).toEqual([]);
    expect(
      rig.port.submitted.map(({ intent }) => [intent.kind, 'sym' in intent ? intent.sym : undefined]),
    ).toEqual([
      ['placeOrder', BTC],
      ['modifyOrder', BTC],
      ['cancelOrder', BTC],
    ]);
  });
});
