import type { TrailingStop } from '../../core/kernel/index.ts';
import type { Position } from '../../core/model/index.ts';
import { positionLabel } from './position-label.ts';

/**
 * The warnings of the emulated trailing stops a stopping session ended (CANCELLED, `runEnded`):
 * Keel held them in memory, the venue never had them, so from the stop on nothing protects the
 * position each was for, and a restarted session does not take them back. One per stop, naming
 * the position it protected when that is still open.
 * @param stops - the stops the kernel's stop ended, as they were just before
 * @param positions - the positions still open at the end, by the session's record
 * @returns one warning per stop
 */
export function endedTrailingStopWarnings(
  stops: readonly TrailingStop[],
  positions: readonly Position[],
): string[] {
  return stops.map((stop) => {
    const what = `trailing stop ${stop.ref} of strategy ${stop.strategyId} (${stop.side} ${stop.qty.toFixed()} ${stop.sym}, ${stop.status} when the session stopped) ended with the session (CANCELLED, runEnded): Keel emulated it, it is not on the venue`;
    const leg = positions.find(
      (p) =>
        p.sym === stop.sym &&
        (stop.positionSide === 'NONE' || p.positionSide === stop.positionSide) &&
        (stop.side === 'SELL' ? p.positionQty.gt(0) : p.positionQty.lt(0)),
    );
    return leg === undefined
      ? `${what}; no position it protected is open`
      : `${what}: the position it protected, ${positionLabel(leg)}, is unprotected (a restarted session does not take the stop back)`;
  });
}

/**
 * The summary line, next to what was left open on the venue, of the emulated trailing stops the
 * stop ended.
 * @param stops - the stops the kernel's stop ended
 * @returns the line, or none when the stop ended none
 */
export function endedTrailingStopsNote(stops: readonly TrailingStop[]): string[] {
  if (stops.length === 0) return [];
  const n = stops.length;
  const shown =
    stops
      .slice(0, 5)
      .map((s) => s.ref)
      .join(', ') + (n > 5 ? `, and ${n - 5} more` : '');
  return [
    `ended with the session, not on the venue (Keel emulated them): ${n} trailing stop${n === 1 ? '' : 's'} (${shown}); the positions they protected are unprotected`,
  ];
}
