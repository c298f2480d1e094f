import { type DrawdownFigures, DrawdownTracker } from '../report/index.ts';

/**
 * Drawdowns and mean equity over every equity sample taken, kept in the bounded curve or not, so
 * the figures do not depend on how far the sampler's buckets merged.
 */
export class EquitySampleStats {
  private readonly drawdowns = new DrawdownTracker();
  private equitySum = 0;
  private samples = 0;
  private lastTs = Number.NaN;
  private lastEquity = 0;

  /**
   * Counts a sample; one of the same time as the previous one replaces it (as in the curve).
   * @param ts - its time (not before the previous one)
   * @param equity - its equity
   */
  add(ts: number, equity: number): void {
    this.drawdowns.add(ts, equity);
    if (ts === this.lastTs) this.equitySum -= this.lastEquity;
    else this.samples++;
    this.equitySum += equity;
    this.lastTs = ts;
    this.lastEquity = equity;
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
