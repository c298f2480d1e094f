import type { RandomSource } from '../../core/kernel/index.ts';

/** Parameters of a GARCH(1,1) variance process on a per-second variance rate. */
export interface GarchParams {
  /** Long-run annualised volatility, e.g. 0.55 for 55 %. */
  readonly annualVol: number;
  /** Weight of the last squared shock. */
  readonly alpha: number;
  /** Weight of the last variance; alpha + beta < 1 is the persistence. */
  readonly beta: number;
}

const SECONDS_PER_YEAR = 365 * 24 * 3600;

/**
 * A standard normal draw (Box-Muller) from a uniform random source.
 * @param rng - the seeded source
 * @returns a draw of N(0, 1)
 */
export function normalDraw(rng: RandomSource): number {
  const u = 1 - rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/**
 * Volatility clustering for the synthetic mid price: GARCH(1,1) on the variance per second,
 * updated once per event with the event's standardised shock, so calm and busy spells persist
 * for minutes.
 */
export class GarchVolatility {
  private readonly omega: number;
  private readonly alpha: number;
  private readonly beta: number;
  /** Long-run variance per second. */
  readonly longRunVariance: number;
  /** Current variance per second. */
  variance: number;

  /**
   * @param params - long-run volatility and GARCH weights
   */
  constructor(params: GarchParams) {
    this.longRunVariance = (params.annualVol * params.annualVol) / SECONDS_PER_YEAR;
    this.alpha = params.alpha;
    this.beta = params.beta;
    this.omega = this.longRunVariance * (1 - params.alpha - params.beta);
    this.variance = this.longRunVariance;
  }

  /**
   * Draws the log return over `dtMs` and updates the variance with its shock.
   * @param dtMs - time since the last step, ms
   * @param z - a standard normal draw
   * @returns the log return
   */
  step(dtMs: number, z: number): number {
    const r = Math.sqrt(this.variance * (dtMs / 1000)) * z;
    this.variance = this.omega + this.alpha * this.variance * z * z + this.beta * this.variance;
    return r;
  }

  /**
   * Current volatility relative to the long run (1 = normal, 3 = a busy spell).
   * @returns sqrt(variance / long-run variance)
   */
  ratio(): number {
    return Math.sqrt(this.variance / this.longRunVariance);
  }
}
