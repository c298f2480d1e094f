import { describe, expect, it } from 'vitest';
import { COMMAND_OUTCOME_UNKNOWN, D } from '../../../core/model/index.ts';
import { anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { aQuote } from '../../kit/kernel-events.ts';
import {
  ACKED_TRIGGER as acked,
  aTriggerReplaceRig,
  growQty,
  raisePrice,
} from '../../kit/trigger-replace-rig.ts';

const anAckedTrigger = (act: Parameters<typeof aTriggerReplaceRig>[0]) => aTriggerReplaceRig(act, true);

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
