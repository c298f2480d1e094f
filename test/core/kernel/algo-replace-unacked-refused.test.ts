import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StrategyContext } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { Intent } from '../../../core/model/index.ts';
import { COMMAND_OUTCOME_UNKNOWN } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

type Ctx = StrategyContext<unknown, unknown>;

/**
 * A kernel (maxNotionalPerOrder 1 000) whose strategy `s` places `s-1` (BUY 1, trigger 110, limit
 * 100) at the first quote, which the venue does not acknowledge yet, and at each later quote sends
 * what `act` returns.
 */
function anUnackedTrigger(act: (ctx: Ctx, quoteTs: number) => Intent | undefined) {
  const strategy = defineStrategy({
    name: 'unacked-trigger',
    params: z.object({}),
    onQuote: (ctx, quote) =>
      quote.ts === 1_000
        ? ctx.order.algo({ sym: BTC, side: 'BUY', qty: 1, price: 100, triggerPrice: 110, condition: 'GTE' })
        : act(ctx, quote.ts),
  });
  const gate = new RiskGate({ limits: { maxNotionalPerOrder: '1000' } });
  const rig = aRecordingKernelRig([{ id: 's', strategy }], { gate });
  rig.market.next(aQuote(1_000, 100));
  const refusals = () => rig.denials.map((d) => `${d.ref} ${d.check}`);
  const refuse = (ref: string, code: number) =>
    rig.port.emit({
      kind: 'commandRejected',
      ts: 2_500,
      recvTs: 2_500,
      ref,
      intentKind: 'replaceAlgoOrder',
      code,
      message: 'refused',
    });
  const sentAs = () => rig.kernel.algoOrdersInFlight('s')[0]?.intent;
  return { ...rig, refusals, refuse, sentAs };
}

const growQty = (ctx: Ctx) => ctx.order.replaceAlgo('s-1', { qty: 10 });
const raisePrice = (ctx: Ctx) => ctx.order.replaceAlgo('s-1', { price: 200 });

describe('kernel: a replace of an algo order the venue has not acknowledged yet, refused', () => {
  it('puts back the terms it was placed on: the next replace is judged on them', () => {
    const rig = anUnackedTrigger((ctx, ts) => (ts === 2_000 ? growQty(ctx) : raisePrice(ctx)));
    rig.market.next(aQuote(2_000, 100));
    expect(rig.sentAs()?.qty.toFixed()).toBe('10');
    rig.refuse('s-2', 400001);
    expect(rig.sentAs()?.qty.toFixed()).toBe('1');
    // 1 * 200: within 1 000 (10 * 200 would not be).
    rig.market.next(aQuote(3_000, 100));
    expect(rig.refusals()).toEqual(['s-2 venue.400001']);
    expect(rig.sentAs()?.price.toFixed()).toBe('200');
  });

  it('keeps the replaces before and after the refused one', () => {
    const rig = anUnackedTrigger((ctx, ts) =>
      ts === 2_000
        ? raisePrice(ctx)
        : ts === 3_000
          ? growQty(ctx)
          : ctx.order.replaceAlgo('s-1', { triggerPrice: 120 }),
    );
    rig.market.next(aQuote(2_000, 100));
    rig.market.next(aQuote(3_000, 100));
    // 10 * 200 is over the limit: s-3 is the kernel's denial, never sent; so the venue refuses s-2 instead.
    rig.market.next(aQuote(4_000, 100));
    rig.refuse('s-2', 400001);
    const terms = rig.sentAs();
    expect([terms?.qty.toFixed(), terms?.price.toFixed(), terms?.triggerPrice.toFixed()]).toEqual([
      '1',
      '100',
      '120',
    ]);
  });

  it('keeps the terms of a replace whose answer never came: it may have been applied', () => {
    const rig = anUnackedTrigger((ctx, ts) => (ts === 2_000 ? growQty(ctx) : undefined));
    rig.market.next(aQuote(2_000, 100));
    rig.refuse('s-2', COMMAND_OUTCOME_UNKNOWN);
    expect(rig.sentAs()?.qty.toFixed()).toBe('10');
  });
});
