import type { Dec, InstrumentSpec, OrderSide, PositionSide } from '../model/index.ts';
import { asNumber, isAboveZero, isNotionalBelowMinimum } from '../model/index.ts';
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
 *
 * A piece below the instrument's minimum size (or minimum notional at `price`, when given) would
 * be denied on its own, so it is not made: a closing piece that small gives way to the whole
 * trade on the order's own leg (the small leg stays until a close takes it, and the trade is not
 * stuck behind a denial), and an opening piece that small is left out (the trade closes the held
 * leg and leaves the dust a NET order would have opened).
 * @param state - the position mode and the legs as the kernel holds them now (fills booked included)
 * @param sym - the symbol
 * @param side - BUY or SELL
 * @param qty - the quantity to trade, positive (zero or less gives no piece)
 * @param price - the price the pieces would trade at, for the minimum notional; unchecked when undefined
 * @returns the closing piece first, then the opening one; each has a positive quantity
 */
export function legPieces(
  state: Pick<OrderFactoryState, 'positionMode' | 'positionQty' | 'instrument'>,
  sym: string,
  side: OrderSide,
  qty: Dec,
  price?: number,
): LegPiece[] {
  // isAboveZero, not gt(0), which makes a Decimal zero to compare with: this runs per order.
  if (!isAboveZero(qty)) return [];
  if (state.positionMode() === 'NET') return [{ qty, positionSide: 'NONE', reduceOnly: false }];
  const held: PositionSide = side === 'BUY' ? 'SHORT' : 'LONG';
  const own: PositionSide = side === 'BUY' ? 'LONG' : 'SHORT';
  const heldQty = state.positionQty(sym, held).abs();
  const closes = qty.lt(heldQty) ? qty : heldQty;
  const opens = qty.sub(closes);
  if (!isAboveZero(closes)) return [{ qty, positionSide: own, reduceOnly: false }];
  const spec = state.instrument(sym);
  if (isTooSmall(closes, spec, price)) return [{ qty, positionSide: own, reduceOnly: false }];
  const pieces: LegPiece[] = [{ qty: closes, positionSide: held, reduceOnly: true }];
  if (isAboveZero(opens) && !isTooSmall(opens, spec, price))
    pieces.push({ qty: opens, positionSide: own, reduceOnly: false });
  return pieces;
}

/**
 * Whether a piece is below the instrument's minimum size, or its minimum notional at `price`
 * (unchecked without a price or an instrument). A module function rather than a closure per
 * trade, which the TypeScript loader would name again at each one.
 */
function isTooSmall(piece: Dec, spec: InstrumentSpec | undefined, price: number | undefined): boolean {
  return (
    spec !== undefined &&
    (piece.lt(spec.minSize) ||
      (price !== undefined &&
        isNotionalBelowMinimum(
          piece,
          asNumber(piece),
          price,
          spec,
          asNumber(spec.contractSize),
          asNumber(spec.minNotional),
        )))
  );
}
