import type { RandomSource } from '../../core/kernel/index.ts';
import type { LatencySpec } from '../sim/index.ts';

/**
 * Draws order-entry delays the way the simulated venue's latency model does: `fixedMs` plus
 * uniform jitter in whole milliseconds in [0, jitterMs), from a seeded random source. The sim's
 * model is private to `backtest/sim`, so the paper venue draws its own order-entry leg with the
 * same distribution; the User Data leg is the sim's own (the paper venue's sims run with it).
 * @param spec - the order-entry leg
 * @param random - seeded randomness (never Math.random)
 * @returns a function giving the next delay, ms
 * @throws RangeError when a delay is negative or not a number
 */
export function orderEntryDelay(spec: LatencySpec, random: RandomSource): () => number {
  if (!(spec.fixedMs >= 0) || !(spec.jitterMs >= 0)) {
    throw new RangeError(
      `paper venue latency.orderEntry must have fixedMs >= 0 and jitterMs >= 0, got ${spec.fixedMs} and ${spec.jitterMs}`,
    );
  }
  // Whole milliseconds keep venue times integral, like the sim's.
  return spec.jitterMs > 0
    ? () => spec.fixedMs + Math.floor(random.next() * spec.jitterMs)
    : () => spec.fixedMs;
}
