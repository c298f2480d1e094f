/** The randomness port: the only way core and backtest code draw random numbers. */
export interface RandomSource {
  /** A float in [0, 1). */
  next(): number;
}

/**
 * A seeded pseudo-random source (mulberry32): the same seed gives the same sequence on every
 * machine, so backtests and synthetic data are reproducible. Not for cryptography.
 * @param seed - any 32-bit integer
 * @returns a deterministic random source
 * @example
 * const rng = seededRandom(42);
 * rng.next(); // 0.6011037519201636 on every run
 */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return {
    next(): number {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}
