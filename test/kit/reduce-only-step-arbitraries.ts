import fc from 'fast-check';
import type { OrderSide } from '../../core/model/index.ts';

/** A BTC position leg: NONE in NET mode, LONG or SHORT in BOTH mode. */
export type StepLeg = 'LONG' | 'SHORT';

/**
 * One step against a sim quoting BTC at 99.9 / 100: an order (reduce-only or plain, resting away
 * from the quote or at market), a modify of an order sent before, a print that fills resting
 * orders, or a close of a leg.
 */
export type ReduceOnlyStep =
  | {
      readonly kind: 'order';
      readonly side: OrderSide;
      readonly leg: StepLeg;
      readonly market: boolean;
      readonly reduceOnly: boolean;
      /** Whole BTC. */
      readonly qty: number;
      /** How far from the quote a limit rests, in whole USDT (a SELL at 100 + away, a BUY at 99.9 - away). */
      readonly away: number;
    }
  | {
      readonly kind: 'modify';
      /** Which order sent before (modulo how many were sent). */
      readonly pick: number;
      readonly qty: number;
    }
  | { readonly kind: 'print'; readonly price: number; readonly size: number }
  | { readonly kind: 'close'; readonly leg: StepLeg };

const qty = fc.integer({ min: 1, max: 4 });
const leg = fc.constantFrom<StepLeg>('LONG', 'SHORT');

/**
 * Orders, modifies, prints and closes in any order.
 * @returns an arbitrary step
 */
export function arbitraryReduceOnlyStep(): fc.Arbitrary<ReduceOnlyStep> {
  return fc.oneof(
    fc.record({
      kind: fc.constant('order' as const),
      side: fc.constantFrom<OrderSide>('BUY', 'SELL'),
      leg,
      market: fc.boolean(),
      reduceOnly: fc.boolean(),
      qty,
      away: fc.integer({ min: 1, max: 5 }),
    }),
    fc.record({
      kind: fc.constant('modify' as const),
      pick: fc.nat({ max: 1000 }),
      qty: fc.integer({ min: 1, max: 6 }),
    }),
    fc.record({
      kind: fc.constant('print' as const),
      price: fc.integer({ min: 93, max: 107 }),
      size: fc.integer({ min: 1, max: 5 }),
    }),
    fc.record({ kind: fc.constant('close' as const), leg }),
  );
}
