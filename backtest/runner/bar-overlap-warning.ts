import type { BarOverlap } from '../sim/index.ts';

/**
 * Warnings for syms whose recordings held bars of several intervals: the bar fill model matched
 * orders against the finest and passed over coarser bars that finer ones already covered, so a
 * user who recorded 1m and 5m klines knows which bars decided the fills.
 * @param overlaps - from the simulated venue, after the run
 * @returns one sentence per sym
 */
export function barOverlapWarnings(overlaps: readonly BarOverlap[]): string[] {
  return overlaps.map((overlap) => {
    const passed = overlap.passedOver
      .map(([interval, count]) => `${count} ${interval} bar${count === 1 ? '' : 's'}`)
      .join(', ');
    const total = overlap.passedOver.reduce((sum, [, count]) => sum + count, 0);
    return `the recordings held ${overlap.sym} bars of several intervals: orders were matched against the ${overlap.matched.join(', ')} bars, and ${passed} that finer bars already covered ${total === 1 ? 'was' : 'were'} passed over (the finest bars tell best when a price came; strategies still saw every bar)`;
  });
}
