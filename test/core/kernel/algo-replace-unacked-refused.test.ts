import { describe, expect, it } from 'vitest';
import { COMMAND_OUTCOME_UNKNOWN } from '../../../core/model/index.ts';
import { aQuote } from '../../kit/kernel-events.ts';
import { aTriggerReplaceRig, growQty, raisePrice } from '../../kit/trigger-replace-rig.ts';

const anUnackedTrigger = (act: Parameters<typeof aTriggerReplaceRig>[0]) => aTriggerReplaceRig(act, false);

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
