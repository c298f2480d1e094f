import type { EquitySnapshot } from '../sim/index.ts';

/** How the sampler keeps its curve bounded. */
export interface EquitySamplerOptions {
  /**
   * Equity on numbers, read at every due sample; with it, the exact equity is computed only for a
   * bucket's new low or high and at its close, and `beforeEvent` must be called before each event.
   * Without it, every due sample is exact.
   */
  readonly estimate?: () => number;
  /**
   * With an estimate: captures the exact equity now without computing it (the simulated venue's
   * `equitySnapshot`), so a candidate low, high or close costs Decimal work only if it is still
   * in the curve when the curve is read. Without it, each candidate is computed at once.
   */
  readonly snapshot?: () => EquitySnapshot;
  /** Most buckets kept before they are merged into wider ones; default 4096. */
  readonly maxBuckets?: number;
}
