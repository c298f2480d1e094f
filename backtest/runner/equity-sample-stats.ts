import { type DrawdownFigures, DrawdownTracker } from '../report/index.ts';

/**
 * Drawdowns and mean equity over every equity sample taken, kept in the bounded curve or not, so
 * the figures do not depend on how far the sampler's buckets merged.
 */
export class EquitySampleStats {
  private readonly drawdowns = new DrawdownTracker();
  private equitySum = 0;
  private samples = 0;

  /**
   * Counts a sample.
   * @param ts - its time (not before the previous one)
   * @param equity - its equity
   */
  add(ts: number, equity: number): void {
    this.drawdowns.add(ts, equity);
    this.equitySum += equity;
    this.samples++;
  }

  /** @returns the drawdown figures over every sample */
  drawdownFigures(): DrawdownFigures {
    return this.drawdowns.figures();
  }

  /** @returns the mean equity over every sample, NaN before any */
  meanEquity(): number {
    return this.equitySum / this.samples;
  }
}
