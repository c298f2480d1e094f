import type { Dec, OrderSide, PositionMode, PositionSide } from '../../core/model/index.ts';
import { badParameter } from './envelope.ts';
import { type Params, positionSideOf } from './request-fields.ts';

/** How many shares one leg of a BOTH-mode position holds (0 when flat). */
export type LegQty = (side: 'LONG' | 'SHORT') => Dec;

/**
 * The position side a PLACE_ORDER trades. The spec's PLACE_ORDER args have no positionSide (that
 * equities API has no position-mode notion: a sell past the shares held sells short), yet the
 * portfolio may be in BOTH mode, where every order trades the LONG or the SHORT leg, and a SELL on
 * LONG or a BUY on SHORT only reduces its leg (`backtest/sim/README.md`). Keel's choice: an
 * optional `positionSide` arg (NONE, LONG or SHORT; the spec lists positionSide among the
 * place-order request fields over WebSocket) is honoured as given, as Keel's live adapter always
 * sends it; without it a NET-mode order trades NONE, and a BOTH-mode order trades the leg an
 * equities account would: a SELL closes the LONG leg while one is held, else sells short on the
 * SHORT leg; a BUY covers the SHORT leg while one is held, else buys on the LONG leg. An order
 * that would close the leg held and go on to open the other (a SELL of 3 on a LONG of 1) cannot
 * be one order of one leg: it is refused rather than trimmed to the leg held.
 * @param params - the PLACE_ORDER args
 * @param mode - the portfolio's position mode
 * @param side - the order's side (bsFlag)
 * @param qty - the order's quantity
 * @param legQty - the shares each leg of the order's sym holds now
 * @returns the order's position side
 * @throws PaperApiError 400001 when positionSide is not NONE, LONG or SHORT, or when, without one
 *   in BOTH mode, the order is larger than the leg it would close
 */
export function equityPositionSide(
  params: Params,
  mode: PositionMode,
  side: OrderSide,
  qty: Dec,
  legQty: LegQty,
): PositionSide {
  if (params.positionSide !== undefined) return positionSideOf(params, 'PLACE_ORDER args');
  if (mode === 'NET') return 'NONE';
  const closes = side === 'SELL' ? 'LONG' : 'SHORT';
  const held = legQty(closes).abs();
  if (held.isZero()) return side === 'SELL' ? 'SHORT' : 'LONG';
  if (qty.gt(held)) {
    throw badParameter(
      'PLACE_ORDER args.qty',
      `${qty.toFixed()} is more than the ${held.toFixed()} the ${closes} leg holds in BOTH position mode: an order without positionSide closes that leg and cannot also open the other; send ${held.toFixed()} first, or name positionSide`,
    );
  }
  return closes;
}
