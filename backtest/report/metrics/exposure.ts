import type { TimeInterval } from '../equity-sample.ts';

/**
 * Exposure time: the share of the run during which some position was open (the time-weighted
 * form of backtesting.py's "Exposure Time [%]", which counts bars from entry to exit bar, both
 * included; QuantStats' `exposure` is the share of non-zero period returns, rounded up to a whole
 * percent). Overlapping intervals (two syms open at once) count once; intervals are clipped to
 * [start, end].
 * @param intervals - when positions were open
 * @param start - start of the run, epoch ms
 * @param end - end of the run, epoch ms
 * @returns |union of intervals| / (end - start), in [0, 1]; 0 for a zero-length run
 */
export function exposureTime(intervals: readonly TimeInterval[], start: number, end: number): number {
  if (end <= start) return 0;
  const clipped = intervals
    .map((i) => ({ from: Math.max(start, i.from), to: Math.min(end, i.to) }))
    .filter((i) => i.to > i.from)
    .sort((a, b) => a.from - b.from);
  let covered = 0;
  let runFrom = 0;
  let runTo = Number.NEGATIVE_INFINITY;
  for (const i of clipped) {
    if (i.from > runTo) {
      if (runTo > runFrom) covered += runTo - runFrom;
      runFrom = i.from;
      runTo = i.to;
    } else {
      runTo = Math.max(runTo, i.to);
    }
  }
  if (runTo > runFrom) covered += runTo - runFrom;
  return Math.min(1, covered / (end - start));
}
