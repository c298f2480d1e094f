import { describe, expect, it } from 'vitest';
import type { Intent } from '../../../core/model/index.ts';
import { aQuote } from '../../kit/kernel-events.ts';
import { aTriggerReplaceRig } from '../../kit/trigger-replace-rig.ts';

const plain = (intent: Intent | undefined): unknown => {
  if (intent?.kind !== 'replaceAlgoOrder') return undefined;
  const { triggerPrice, price, qty } = intent;
  return JSON.parse(JSON.stringify({ triggerPrice, price, qty }));
};

describe('kernel: replaceAlgo with round: true', () => {
  for (const acknowledged of [true, false])
    it(`rounds a new limit away from the latest trigger sent, a replace in flight's included (${acknowledged ? 'acknowledged' : 'unanswered'} algo order)`, () => {
      // s-1 is a BUY trigger at 110, limit 100. The first replace moves the trigger to 120 (120.04
      // to the nearest tick); the second's limit 119.95 lies below that trigger, so it rounds down
      // to 119.9, not up onto 120 as it would against the 110 the venue last confirmed.
      const rig = aTriggerReplaceRig(
        (ctx, ts) =>
          ts === 2_000
            ? ctx.order.replaceAlgo('s-1', { triggerPrice: 120.04, round: true })
            : ctx.order.replaceAlgo('s-1', { price: 119.95, qty: 1.0004, round: true }),
        acknowledged,
      );
      rig.market.next(aQuote(2_000, 100));
      rig.market.next(aQuote(3_000, 100));
      expect(rig.denials).toEqual([]);
      const replaces = rig.port.submitted.filter((c) => c.intent.kind === 'replaceAlgoOrder');
      expect(replaces.map((c) => plain(c.intent))).toEqual([
        { triggerPrice: '120' },
        { price: '119.9', qty: '1' },
      ]);
    });
});
