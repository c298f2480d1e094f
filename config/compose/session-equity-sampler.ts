import { EquitySampler } from '../../backtest/runner/index.ts';
import type { Dec } from '../../core/model/index.ts';

/** A session's equity sampler and the start it waits for. */
export interface SessionEquitySampler {
  readonly sampler: EquitySampler;
  /**
   * Starts the curve at `ts` unless it started already or the clock still reads 0.
   * @param ts - the session clock, epoch ms
   */
  startAt(ts: number): void;
}

/**
 * The equity sampler of a live or paper session (one point a second at most), started at the
 * session clock, except that a paper venue's clock reads 0 until it releases its first event:
 * then the curve starts at that event (a start at 0 made a 56-year curve).
 * @param equity - reads the kernel's equity; each sample also goes to `onSample`
 * @param onSample - sees each equity read (the metrics gauge)
 * @returns the sampler and its start
 */
export function sessionEquitySampler(
  equity: () => Dec,
  onSample: (equity: Dec) => void,
): SessionEquitySampler {
  const sampler = new EquitySampler(1000, () => {
    const value = equity();
    onSample(value);
    return value;
  });
  let started = false;
  return {
    sampler,
    startAt: (ts) => {
      if (started || ts <= 0) return;
      sampler.start(ts);
      started = true;
    },
  };
}
