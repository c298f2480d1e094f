import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { IntentGate } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { Intent } from '../../../core/model/index.ts';
import type { ApprovedIntent } from '../../../core/risk/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { arbitraryIntent } from '../../kit/intent-arbitraries.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote } from '../../kit/kernel-events.ts';

describe('kernel intent accounting', () => {
  it('property: every intent either reaches the port as the gate’s approved command or comes back as a denial', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(arbitraryIntent(), { maxLength: 5 }), { minLength: 1, maxLength: 8 }),
        (batches) => {
          let n = 0;
          const numbered = batches.map((batch) =>
            batch.map((intent): Intent => ({ ...intent, ref: `p${n++}` })),
          );
          const approved = new Set<ApprovedIntent>();
          const real = new RiskGate({
            limits: { maxNotionalPerOrder: '5000', priceBand: 0.1, maxOpenOrders: 5 },
          });
          const gate: IntentGate = {
            evaluate: (intent, view) => {
              const decision = real.evaluate(intent, view);
              if (decision.kind === 'approved') approved.add(decision.command);
              return decision;
            },
          };
          const strategy = defineStrategy({
            name: 'random-intents',
            params: z.object({}),
            onQuote: (_ctx, quote) => numbered[quote.ts],
          });
          const rig = aKernelRig([{ id: 'r', strategy }], { gate });
          numbered.forEach((_, i) => {
            rig.market.next(aQuote(i, 1000));
          });
          const sent = numbered.flat();
          expect(rig.venue.submitted.every((command) => approved.has(command))).toBe(true);
          const submittedRefs = rig.venue.submitted.map((c) => c.intent.ref);
          const deniedRefs = rig.denials.map((d) => d.ref);
          expect([...submittedRefs, ...deniedRefs].sort()).toEqual(sent.map((i) => i.ref).sort());
          expect(rig.faults).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });
});
