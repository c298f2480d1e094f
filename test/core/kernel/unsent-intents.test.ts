import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setupWarnings } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

describe('kernel: intents a hook built and never sent', () => {
  it('are counted per strategy and hook kind, and named once in the run warnings with the counts', () => {
    const forgot = defineStrategy({
      name: 'forgot',
      params: z.object({}),
      onQuote: (ctx) => {
        // a Nautilus habit: submit_order is a call, ctx.order.market only builds
        ctx.order.market({ sym: BTC, side: 'BUY', qty: 0.1 });
      },
    });
    const slots = [{ id: 'forgot', strategy: forgot }];
    const rig = aKernelRig(slots);
    for (const ts of [1, 2, 3]) rig.market.next(aQuote(ts, 100));
    expect(rig.kernel.unsentIntents()).toEqual([
      { strategyId: 'forgot', where: 'onQuote', calls: 3, intents: 3 },
    ]);
    expect(rig.venue.submitted).toEqual([]);
    const warnings = setupWarnings(rig.kernel, slots, [BTC]).filter((w) => w.includes('never sent'));
    expect(warnings).toEqual([
      "strategy forgot's onQuote built 3 intents with ctx.order (in 3 calls) that it neither returned nor gave to ctx.submit by the time it returned, so they were never sent: ctx.order only builds an intent; return it (or an array of them) or pass it to ctx.submit",
    ]);
  });

  it('leaves out a builder call that threw: it built nothing', () => {
    const caught = defineStrategy({
      name: 'caught',
      params: z.object({}),
      onQuote: (ctx) => {
        const tries = [
          () => ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: '1e-30' }),
          () => ctx.order.market({ sym: BTC, side: 'BUY', quoteQty: 'lots' }),
          () =>
            ctx.order.algo({ sym: BTC, side: 'SELL', qty: 0.1, triggerPrice: Number.NaN, condition: 'LTE' }),
        ];
        for (const build of tries) expect(build).toThrow(TypeError);
      },
    });
    const rig = aKernelRig([{ id: 'caught', strategy: caught }]);
    rig.market.next(aQuote(1, 100));
    expect(rig.faults).toEqual([]);
    expect(rig.kernel.unsentIntents()).toEqual([]);
  });

  it('leaves out intents returned, given to ctx.submit, denied, or expanded by the kernel', () => {
    const sends = defineStrategy({
      name: 'sends',
      params: z.object({}),
      onQuote: (ctx, quote) => {
        const entry = ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: 90 });
        ctx.submit([entry, ctx.order.market({ sym: BTC, side: 'BUY', qty: -1 })]);
        if (quote.ts === 1)
          ctx.submit(
            ctx.order.algo({ sym: BTC, side: 'SELL', qty: 0.1, triggerPrice: 80, condition: 'LTE' }),
          );
        if (quote.ts === 2) ctx.submit(ctx.order.cancelAllAlgos());
        return [ctx.order.cancel(entry.ref), ctx.order.modify('nothing', { qty: 1 })];
      },
    });
    const other = defineStrategy({ name: 'other', params: z.object({}) });
    const rig = aKernelRig([
      { id: 'sends', strategy: sends },
      { id: 'other', strategy: other },
    ]);
    for (const ts of [1, 2, 3]) rig.market.next(aQuote(ts, 100));
    expect(rig.denials.length).toBeGreaterThan(0);
    // another strategy runs: the cancel-all went as one cancel per algo order, built by the kernel
    expect(rig.venue.submitted.filter((c) => c.intent.kind === 'cancelAlgoOrder')).toHaveLength(1);
    expect(rig.kernel.unsentIntents()).toEqual([]);
  });
});
