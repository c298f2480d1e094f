import type { RandomSource } from '../../core/kernel/index.ts';

/** One latency leg: a fixed delay plus uniform jitter in [0, jitterMs). */
export interface LatencySpec {
  readonly fixedMs: number;
  readonly jitterMs: number;
}

/** Latency legs of the simulated venue. */
export interface LatencyOptions {
  /** Strategy -> venue: when a submitted command arrives at the matching engine. */
  readonly orderEntry: LatencySpec;
  /** Venue -> strategy for market data (exposed for the runner). */
  readonly marketData: LatencySpec;
  /** Venue -> strategy for User Data events; defaults to the market-data leg. */
  readonly userData?: LatencySpec;
}

/** Samples delays from a {@link LatencyOptions}, with seeded jitter. */
export interface LatencyModel {
  /** A short description for reports, e.g. `order entry 5ms + U[0,2)ms, market data 1ms`. */
  readonly description: string;
  /** @returns the next order-entry delay in ms */
  orderEntry(): number;
  /** @returns the next market-data delay in ms */
  marketData(): number;
  /** @returns the next User Data delay in ms */
  userData(): number;
}

/** No latency at all: what a hand-computed test usually wants. */
export const ZERO_LATENCY: LatencyOptions = {
  orderEntry: { fixedMs: 0, jitterMs: 0 },
  marketData: { fixedMs: 0, jitterMs: 0 },
};

/**
 * The longest delay with which a strategy learns what the venue saw or did: the longer of the
 * market-data and User Data legs' longest draws. The venue's bar cutoff allows it to a reaction to
 * the previous bar (`arrivalCutoff`), and a kernel on this venue gives its emulated stops the same
 * allowance (the kernel's `barReactionMs`).
 * @param options - the legs
 * @returns ms
 */
export function longestViewDelay(options: LatencyOptions): number {
  const user = options.userData ?? options.marketData;
  return Math.max(options.marketData.fixedMs + options.marketData.jitterMs, user.fixedMs + user.jitterMs);
}

function describeLeg(spec: LatencySpec): string {
  return spec.jitterMs > 0 ? `${spec.fixedMs}ms + U[0,${spec.jitterMs})ms` : `${spec.fixedMs}ms`;
}

/**
 * Draws one leg's delays: `fixedMs` plus uniform jitter in whole milliseconds in [0, jitterMs).
 * The paper venue draws its order-entry leg with it too, so both venues delay alike.
 * @param spec - the leg
 * @param random - seeded randomness (never Math.random)
 * @param leg - the leg's name in errors, e.g. `sim latency.orderEntry`
 * @returns a function giving the next delay, ms
 * @throws RangeError when a delay is negative or not a number
 */
export function latencyLegSampler(spec: LatencySpec, random: RandomSource, leg: string): () => number {
  if (!(spec.fixedMs >= 0) || !(spec.jitterMs >= 0)) {
    throw new RangeError(
      `${leg} must have fixedMs >= 0 and jitterMs >= 0, got ${spec.fixedMs} and ${spec.jitterMs}`,
    );
  }
  // Whole milliseconds keep virtual timestamps integral like the venue's.
  return spec.jitterMs > 0
    ? () => spec.fixedMs + Math.floor(random.next() * spec.jitterMs)
    : () => spec.fixedMs;
}

/**
 * Builds a latency model: fixed delay plus jitter drawn from the injected random source.
 * @param options - the three legs
 * @param random - seeded randomness (never Math.random)
 * @returns the model
 * @throws RangeError when a delay is negative
 */
export function createLatencyModel(options: LatencyOptions, random: RandomSource): LatencyModel {
  const userSpec = options.userData ?? options.marketData;
  return {
    description: `order entry ${describeLeg(options.orderEntry)}, market data ${describeLeg(options.marketData)}, user data ${describeLeg(userSpec)}`,
    orderEntry: latencyLegSampler(options.orderEntry, random, 'sim latency.orderEntry'),
    marketData: latencyLegSampler(options.marketData, random, 'sim latency.marketData'),
    userData: latencyLegSampler(userSpec, random, 'sim latency.userData'),
  };
}
