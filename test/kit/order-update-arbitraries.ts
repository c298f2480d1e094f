import fc from 'fast-check';
import { D, type Order, type OrderState } from '../../core/model/index.ts';
import { anOrder } from './order-builders.ts';

type Step =
  | { readonly kind: 'fill'; readonly lots: number; readonly dt: number }
  | { readonly kind: 'amend'; readonly dt: number };

/**
 * A valid sequence of venue updates of one order, in the order the venue produced them:
 * NEW, maybe OPEN, fills (executedQty rising) and amendments (updateAt later, or the same
 * millisecond as the update before unless that was an amendment too), and
 * maybe an end (FILLED when fully executed, else CANCELLED, or REJECTED straight after NEW).
 * @returns an arbitrary non-empty update sequence
 */
export function arbitraryOrderLifecycle(): fc.Arbitrary<readonly Order[]> {
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({
      kind: fc.constant('fill' as const),
      lots: fc.integer({ min: 1, max: 3 }),
      dt: fc.integer({ min: 0, max: 5 }),
    }),
    fc.record({ kind: fc.constant('amend' as const), dt: fc.integer({ min: 0, max: 5 }) }),
  );
  return fc
    .record({
      withOpen: fc.boolean(),
      steps: fc.array(step, { maxLength: 6 }),
      end: fc.constantFrom('none', 'cancel', 'reject', 'fillRest'),
    })
    .map(({ withOpen, steps, end }) => {
      const updates: Order[] = [];
      let current = anOrder({ orderState: 'NEW', orderQty: D(10), updateAt: 1000, createAt: 1000 });
      const push = (changes: Partial<Order>): void => {
        current = { ...current, ...changes };
        updates.push(current);
      };
      updates.push(current);
      if (end === 'reject') {
        push({ orderState: 'REJECTED', updateAt: current.updateAt + 1 });
        return updates;
      }
      if (withOpen) push({ orderState: 'OPEN' });
      for (const s of steps) {
        if (s.kind === 'amend') {
          // Two amendments in one millisecond cannot be ordered from their content: keep them apart.
          const dt = current.action === 'AMEND_COMPLETED' ? Math.max(1, s.dt) : s.dt;
          push({
            limitPrice: current.limitPrice.add(1),
            action: 'AMEND_COMPLETED',
            updateAt: current.updateAt + dt,
          });
          continue;
        }
        const executed = current.executedQty.add(s.lots);
        if (executed.greaterThanOrEqualTo(current.orderQty)) break;
        push({
          orderState: 'PARTIALLY_FILLED',
          executedQty: executed,
          action: 'FILL',
          updateAt: current.updateAt + s.dt,
        });
      }
      const final: Partial<Record<typeof end, OrderState>> = { cancel: 'CANCELLED', fillRest: 'FILLED' };
      const state = final[end];
      if (state !== undefined) {
        push({
          orderState: state,
          executedQty: state === 'FILLED' ? current.orderQty : current.executedQty,
          updateAt: current.updateAt + 1,
        });
      }
      return updates;
    });
}

/**
 * A valid update sequence together with the same updates reordered at random and some of them
 * duplicated: what a venue connection may deliver.
 * @returns the valid sequence and its scrambled delivery
 */
export function arbitraryScrambledLifecycle(): fc.Arbitrary<{
  readonly valid: readonly Order[];
  readonly delivered: readonly Order[];
}> {
  return arbitraryOrderLifecycle().chain((valid) =>
    fc
      .array(fc.integer({ min: 0, max: valid.length - 1 }), { maxLength: 8 })
      .chain((dups) => {
        const all = [...valid, ...dups.map((i) => valid[i] as Order)];
        return fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length });
      })
      .map((delivered) => ({ valid, delivered })),
  );
}
