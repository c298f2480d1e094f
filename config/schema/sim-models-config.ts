import { z } from 'zod';
import { FILL_MODEL_NAMES } from '../../backtest/sim/index.ts';

const fillModelName = z.enum(FILL_MODEL_NAMES);

/**
 * A fill model of the simulated venue: its name (`touch`, `through`, `queue`, `bar`), or the
 * name with settings. Absent = the simulated venue's default.
 */
export const fillModelConfigSchema = z.union(
  [
    fillModelName,
    z.strictObject({
      name: fillModelName,
      partialFills: z.boolean().optional().describe('Limit each fill to the displayed or traded size.'),
      slippageTicks: z
        .number()
        .nonnegative()
        .optional()
        .describe('Extra adverse ticks on every market-order fill.'),
      beyondBookTicks: z
        .number()
        .nonnegative()
        .optional()
        .describe('Ticks beyond the last displayed level for a market order outgrowing the book.'),
    }),
  ],
  { error: `must be a fill model name (${FILL_MODEL_NAMES.join(', ')}) or a map with name and settings` },
);

/**
 * The position mode the simulated venue's account starts in: NET (one position per sym) or BOTH
 * (hedge mode: a LONG and a SHORT leg per sym). A strategy may still switch with
 * `ctx.order.setPositionMode` while it holds no position and no open order.
 */
export const positionModeConfigSchema = z.enum(['NET', 'BOTH']);

/** One latency leg: a fixed delay plus uniform jitter in [0, jitterMs). */
export const latencyLegSchema = z.strictObject({
  fixedMs: z.number().nonnegative().default(0),
  jitterMs: z.number().nonnegative().default(0),
});

/**
 * Simulated latency. `fixedMs` / `jitterMs` are the order-entry leg (strategy -> matching
 * engine); market data and User Data legs are optional; `seed` seeds the jitter. Absent = the
 * simulated venue's default latency (order entry 10 ms + U[0,5) ms, market data and User Data 5 ms).
 */
export const latencyModelSchema = z.strictObject({
  fixedMs: z.number().nonnegative().default(0),
  jitterMs: z.number().nonnegative().default(0),
  seed: z.int().default(1),
  marketData: latencyLegSchema
    .optional()
    .describe(
      "Venue -> strategy delay of market data: a backtest shows strategies each recorded event this long after the venue matched it; absent = 0, as a recording's receive times already hold the feed's delay. The sim's venue charges that delay to orders too: an order meets only the prints the venue stamped (ts) at or after its arrival; quotes and marks stand until the next update (backtest/sim/README.md).",
    ),
  userData: latencyLegSchema
    .optional()
    .describe(
      'Venue -> strategy delay of User Data (order updates, fills, balances); absent = the marketData leg.',
    ),
});
