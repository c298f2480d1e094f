import type { Dec, OrderSide, PositionSide } from '../model/index.ts';
import type { OrderFactoryState } from './order-defaults.ts';

/** One piece of a trade as the position legs take it: how much, on which leg, and whether it only reduces. */
export interface LegPiece {
  /** The piece's quantity, positive. */
  readonly qty: Dec;
  /** NONE in NET mode; in BOTH mode the leg the piece closes or opens. */
  readonly positionSide: PositionSide;
  /** True for the piece that closes the held opposite leg (BOTH mode), false otherwise. */
  readonly reduceOnly: boolean;
}

/**
 * Splits a trade of `qty` on `side` into the pieces that move the net position by it in either
 * position mode. NET mode: one piece on NONE. BOTH mode: a BUY first closes the held SHORT leg
 * (positionSide SHORT, reduce-only, at most its size) and only the rest opens the LONG leg; a SELL
 * first closes the LONG leg and only the rest opens the SHORT leg. So a strategy that trades a net
 * target keeps one leg at a time instead of building both (a BUY sent without a positionSide in
 * BOTH mode always opens LONG, whatever SHORT is held).
 * @param state - the position mode and the legs as the kernel holds them now (fills booked included)
 * @param sym - the symbol
 * @param side - BUY or SELL
 * @param qty - the quantity to trade, positive (zero or less gives no piece)
 * @returns the closing piece first, then the opening one; each has a positive quantity
 */
export function legPieces(
  state: Pick<OrderFactoryState, 'positionMode' | 'positionQty'>,
  sym: string,
  side: OrderSide,
  qty: Dec,
): LegPiece[] {
  if (!qty.gt(0)) return [];
  if (state.positionMode() === 'NET') return [{ qty, positionSide: 'NONE', reduceOnly: false }];
  const held: PositionSide = side === 'BUY' ? 'SHORT' : 'LONG';
  const heldQty = state.positionQty(sym, held).abs();
  const closes = qty.lt(heldQty) ? qty : heldQty;
  const opens = qty.sub(closes);
  const pieces: LegPiece[] = [];
  if (closes.gt(0)) pieces.push({ qty: closes, positionSide: held, reduceOnly: true });
  if (opens.gt(0))
    pieces.push({ qty: opens, positionSide: side === 'BUY' ? 'LONG' : 'SHORT', reduceOnly: false });
  return pieces;
}
