import { z } from 'zod';
import type { StrategyContext } from '../../core/kernel/index.ts';
import { defineStrategy } from '../../core/kernel/index.ts';
import type { Intent } from '../../core/model/index.ts';
import { D } from '../../core/model/index.ts';
import { RiskGate } from '../../core/risk/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from './algo-order-builders.ts';
import { aRecordingKernelRig } from './kernel-builders.ts';
import { aQuote, BTC } from './kernel-events.ts';

/** A strategy context of the rig's strategy. */
export type TriggerCtx = StrategyContext<unknown, unknown>;

/** The algo order `s-1` as the venue acknowledges it: a BUY 1 trigger at 110, a limit at 100 when fired. */
export const ACKED_TRIGGER = anAlgoOrder({
  clientAlgoOrderId: 's-1',
  side: 'BUY',
  conditionType: 'GTE',
  triggerPrice: D(110),
  price: D(100),
  reduceOnly: false,
});

/**
 * A kernel (maxNotionalPerOrder 1 000) whose strategy `s` places `s-1` (BUY 1, trigger 110, limit
 * 100) at the first quote (ts 1 000), which the venue acknowledges or not, and at each later quote
 * sends what `act` returns.
 * @param act - the strategy's intent at a later quote
 * @param acknowledged - whether the venue acknowledges `s-1` at once ({@link ACKED_TRIGGER})
 * @returns the rig, the denials as `ref check`, a venue refusal of a replace at ts 2 500, and the
 *   terms the kernel holds `s-1` to while a command is in flight
 */
export function aTriggerReplaceRig(
  act: (ctx: TriggerCtx, quoteTs: number) => Intent | undefined,
  acknowledged: boolean,
) {
  const strategy = defineStrategy({
    name: acknowledged ? 'acked-trigger' : 'unacked-trigger',
    params: z.object({}),
    onQuote: (ctx, quote) =>
      quote.ts === 1_000
        ? ctx.order.algo({ sym: BTC, side: 'BUY', qty: 1, price: 100, triggerPrice: 110, condition: 'GTE' })
        : act(ctx, quote.ts),
  });
  const gate = new RiskGate({ limits: { maxNotionalPerOrder: '1000' } });
  const rig = aRecordingKernelRig([{ id: 's', strategy }], { gate });
  rig.market.next(aQuote(1_000, 100));
  if (acknowledged) rig.port.emit(anAlgoOrderUpdate(ACKED_TRIGGER));
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

/**
 * Replaces `s-1` with qty 10.
 * @param ctx - the strategy's context
 * @returns the replace intent
 */
export const growQty = (ctx: TriggerCtx) => ctx.order.replaceAlgo('s-1', { qty: 10 });

/**
 * Replaces `s-1` with limit price 200.
 * @param ctx - the strategy's context
 * @returns the replace intent
 */
export const raisePrice = (ctx: TriggerCtx) => ctx.order.replaceAlgo('s-1', { price: 200 });
