import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StrategyContext } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { Intent } from '../../../core/model/index.ts';
import { COMMAND_OUTCOME_UNKNOWN, D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

type Ctx = StrategyContext<unknown, unknown>;

/** The algo order `s-1` as the venue acknowledged it: a BUY 1 trigger at 110, a limit at 100 when fired. */
const acked = anAlgoOrder({
  clientAlgoOrderId: 's-1',
  side: 'BUY',
  conditionType: 'GTE',
  triggerPrice: D(110),
  price: D(100),
  reduceOnly: false,
});

/**
 * A kernel (maxNotionalPerOrder 1 000) whose strategy `s` places `s-1` at the first quote, which
 * the venue acknowledges, and at each later quote sends what `act` returns.
 */
function anAckedTrigger(act: (ctx: Ctx, quoteTs: number) => Intent | undefined) {
  const strategy = defineStrategy({
    name: 'acked-trigger',
    params: z.object({}),
    onQuote: (ctx, quote) =>
      quote.ts === 1_000
        ? ctx.order.algo({ sym: BTC, side: 'BUY', qty: 1, price: 100, triggerPrice: 110, condition: 'GTE' })
        : act(ctx, quote.ts),
  });
  const gate = new RiskGate({ limits: { maxNotionalPerOrder: '1000' } });
  const rig = aRecordingKernelRig([{ id: 's', strategy }], { gate });
  rig.market.next(aQuote(1_000, 100));
  rig.port.emit(anAlgoOrderUpdate(acked));
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
  return { ...rig, refusals, refuse };
}

const growQty = (ctx: Ctx) => ctx.order.replaceAlgo('s-1', { qty: 10 });
const raisePrice = (ctx: Ctx) => ctx.order.replaceAlgo('s-1', { price: 200 });

describe('kernel: a replace in flight on an acknowledged algo order', () => {
  it('is merged into its terms until the venue answers: the next replace is judged on the larger qty', () => {
    const rig = anAckedTrigger((ctx, ts) => (ts === 2_000 ? growQty(ctx) : raisePrice(ctx)));
    rig.market.next(aQuote(2_000, 100));
    // 10 * 200 if the venue applies both: over 1 000, though 1 * 200 (the venue's copy) is not.
    rig.market.next(aQuote(3_000, 100));
    expect(rig.refusals()).toEqual(['s-3 maxNotional']);
    // The venue's answer (its copy at qty 10) stands from then on, as before.
    rig.port.emit(anAlgoOrderUpdate({ ...acked, qty: D(10), updateAt: 3_100 }));
    rig.market.next(aQuote(4_000, 100));
    expect(rig.refusals()).toEqual(['s-3 maxNotional', 's-4 maxNotional']);
  });

  it('stops counting a replace the venue refused, but not one whose answer never came', () => {
    const rig = anAckedTrigger((ctx, ts) => (ts === 2_000 || ts === 4_000 ? growQty(ctx) : raisePrice(ctx)));
    rig.market.next(aQuote(2_000, 100));
    rig.refuse('s-2', 400001);
    rig.market.next(aQuote(3_000, 100));
    expect(rig.refusals()).toEqual(['s-2 venue.400001']);
    rig.refuse('s-3', 400001);
    rig.market.next(aQuote(4_000, 100));
    rig.refuse('s-4', COMMAND_OUTCOME_UNKNOWN);
    rig.market.next(aQuote(5_000, 100));
    expect(rig.refusals()).toEqual([
      's-2 venue.400001',
      's-3 venue.400001',
      `s-4 venue.${COMMAND_OUTCOME_UNKNOWN}`,
      's-5 maxNotional',
    ]);
  });
});
