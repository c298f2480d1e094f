import { z } from 'zod';
import { positiveDecimal } from './decimal-value.ts';

/**
 * Risk limits as a config states them, global or per strategy. Every limit is optional: an
 * absent limit is not checked. This is the config side's shape until core/risk exports its own
 * `riskLimitsSchema`; it then becomes an alias of that.
 */
export const riskLimitsConfigSchema = z.strictObject({
  /** Largest quantity of one order. */
  maxOrderQty: positiveDecimal.optional(),
  /** Largest notional of one order, in the settlement asset. */
  maxOrderNotional: positiveDecimal.optional(),
  /** Largest absolute position per sym. */
  maxPositionQty: positiveDecimal.optional(),
  /** Largest absolute position notional per sym. */
  maxPositionNotional: positiveDecimal.optional(),
  /** Most open orders at once. */
  maxOpenOrders: z.int().positive().optional(),
  /** Farthest a limit price may be from the reference price, in basis points. */
  priceBandBps: z.number().positive().optional(),
  /** Most order submissions per second. */
  maxOrdersPerSecond: z.number().positive().optional(),
  /** Loss from the session's start at which trading switches to REDUCING. */
  maxDrawdown: positiveDecimal.optional(),
  /** Trading state at start. */
  tradingState: z.enum(['ACTIVE', 'REDUCING', 'HALTED']).default('ACTIVE'),
});

/** Risk limits of a run or a strategy, validated. */
export type RiskLimitsConfig = z.output<typeof riskLimitsConfigSchema>;
