import type { Dec, Position, PositionSide } from '../model/index.ts';
import { ZERO } from '../model/index.ts';
import type { UnreportedFills } from './unreported-fills.ts';

/** A flat SHORT leg's quantity (-0, as 0 negated): one shared immutable value instead of one per call. */
const NEGATIVE_ZERO = ZERO.neg();

/**
 * Signed quantity of one position leg: long > 0, short < 0 (a SHORT leg reported with a positive
 * size is negated), zero when flat: the venue's latest position report plus the fills booked
 * since that the venue has not reported in one yet.
 * @param positions - the venue's latest position reports by `sym|positionSide`
 * @param unreported - the fills booked since each leg's report
 * @param key - the leg's `sym|positionSide`
 * @param positionSide - NONE, LONG or SHORT
 * @returns the signed quantity
 */
export function legQty(
  positions: ReadonlyMap<string, Position>,
  unreported: UnreportedFills,
  key: string,
  positionSide: PositionSide,
): Dec {
  const qty = positions.get(key)?.positionQty ?? ZERO;
  const pending = unreported.qty(key);
  const reported = positionSide !== 'SHORT' ? qty : qty === ZERO ? NEGATIVE_ZERO : qty.abs().neg();
  return pending === ZERO ? reported : reported.add(pending);
}
