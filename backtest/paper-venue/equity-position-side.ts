import type { PositionMode, PositionSide } from '../../core/model/index.ts';
import { type Params, positionSideOf } from './request-fields.ts';

/**
 * The position side a PLACE_ORDER trades. The spec's PLACE_ORDER args have no positionSide (that
 * equities API has no position-mode notion), yet the portfolio may be in BOTH mode, where every
 * order needs LONG or SHORT. Keel's choice: an optional `positionSide` arg (NONE, LONG or SHORT;
 * the spec lists positionSide among the place-order request fields over WebSocket) is honoured as
 * given; without it a BOTH-mode order trades the LONG side (shares are held long: a buy adds to
 * the position, a sell reduces it) and a NET-mode order NONE.
 * @param params - the PLACE_ORDER args
 * @param mode - the portfolio's position mode
 * @returns the order's position side
 * @throws PaperApiError 400001 when positionSide is not NONE, LONG or SHORT
 */
export function equityPositionSide(params: Params, mode: PositionMode): PositionSide {
  if (params.positionSide === undefined) return mode === 'BOTH' ? 'LONG' : 'NONE';
  return positionSideOf(params, 'PLACE_ORDER args');
}
