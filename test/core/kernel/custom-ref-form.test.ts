import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

/** Strategy `pmm` posting a bid under each reference, on the first quote. */
function pmmWith(refs: readonly string[]) {
  return defineStrategy({
    name: 'pmm',
    params: z.object({}),
    onQuote: (ctx, q) =>
      q.ts === 1
        ? refs.map((ref) => ctx.order.postOnly({ sym: BTC, side: 'BUY', qty: 0.1, price: 90, ref }))
        : undefined,
  });
}

const FORM = "has the form of this strategy's generated references (pmm-[run tag-]<counter in base 36>)";

describe("custom references and a strategy's generated ones", () => {
  for (const runId of ['', 'r7']) {
    const mode = runId === '' ? 'a backtest (no run tag)' : 'a tagged (paper or live) run';

    it(`in ${mode}, sends references that start with the strategy id but have no generated form, and refuses the same ones that have it`, () => {
      const rig = aKernelRig(
        [{ id: 'pmm', strategy: pmmWith(['pmm-bid-1', 'pmm-BUY-1', 'pmm-7', 'pmm-bid-1']) }],
        {
          runId,
        },
      );
      rig.market.next(aQuote(1, 100));
      expect(rig.venue.orders.has('pmm-bid-1')).toBe(true);
      expect(rig.venue.orders.has('pmm-BUY-1')).toBe(true);
      expect(rig.denials.map((d) => `${d.check} ${d.reason}`)).toEqual([
        `kernel.ref reference pmm-7 ${FORM}`,
        'kernel.ref reference pmm-bid-1 was already used in this run',
      ]);
    });
  }

  it("refuses the run's own tagged form, never generated, as of the generated form", () => {
    const rig = aKernelRig([{ id: 'pmm', strategy: pmmWith(['pmm-r7-z']) }], { runId: 'r7' });
    rig.market.next(aQuote(1, 100));
    expect(rig.denials.map((d) => d.reason)).toEqual([`reference pmm-r7-z ${FORM}`]);
  });

  it("refuses another strategy's generated form, and sends one that only starts with its id", () => {
    const rig = aKernelRig([
      { id: 'pmm', strategy: pmmWith(['other-3', 'other-ask-1']) },
      { id: 'other', strategy: pmmWith([]) },
    ]);
    rig.market.next(aQuote(1, 100));
    expect(rig.denials.map((d) => d.reason)).toEqual([
      "reference other-3 has the form of strategy other's generated references",
    ]);
    expect(rig.venue.orders.has('other-ask-1')).toBe(true);
  });
});
