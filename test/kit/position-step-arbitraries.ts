import fc from 'fast-check';
import type { OrderSide } from '../../core/model/index.ts';

/** One step of a position's life: a strategy sends an order or an amendment, or a resting order fills. */
export type PositionStep =
  | {
      readonly kind: 'order';
      readonly strategyId: 's1' | 's2';
      readonly side: OrderSide;
      /** Size in lots of 0.1. */
      readonly lots: number;
      readonly reduceOnly: boolean;
    }
  | {
      readonly kind: 'modify';
      /** Which resting order (modulo how many rest). */
      readonly pick: number;
      /** The new size in lots of 0.1. */
      readonly lots: number;
    }
  | {
      readonly kind: 'fill';
      /** Which resting order (modulo how many rest). */
      readonly pick: number;
      /** How many of its unfilled lots fill (capped at what is left). */
      readonly lots: number;
    };

const lots = fc.integer({ min: 1, max: 30 });
const pick = fc.nat({ max: 1000 });

/**
 * Orders from two strategies, amendments and partial fills in any order.
 * @returns an arbitrary step
 */
export function arbitraryPositionStep(): fc.Arbitrary<PositionStep> {
  return fc.oneof(
    fc.record({
      kind: fc.constant('order' as const),
      strategyId: fc.constantFrom('s1' as const, 's2' as const),
      side: fc.constantFrom<OrderSide>('BUY', 'SELL'),
      lots,
      reduceOnly: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('modify' as const), pick, lots }),
    fc.record({ kind: fc.constant('fill' as const), pick, lots }),
  );
}
