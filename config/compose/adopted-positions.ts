import type { RoundTripOptions } from '../../backtest/report/index.ts';
import { type InstrumentSpec, isBelowZero, type Position, settlesInCoins } from '../../core/model/index.ts';

/** A position a session adopted: the lot its trade list starts from (see `RoundTripBook.adopt`). */
export type SessionAdoptedPosition = NonNullable<RoundTripOptions['adopted']>[number];

/**
 * The positions a live or paper session found open on the venue once its first reconciliation
 * was folded, as the lots its trade list starts from: each at the venue's average entry price,
 * entered when adopted, so the session's fills that reduce it close it rather than open the
 * reverse. A spot holding (crypto SPOT and MARGIN, `settlesInCoins`) is left as it is: its lots
 * predate the list, and a paper session's starting coins are no trade, as in its backtest.
 * @param positions - the positions as the kernel holds them after the reconciliation
 * @param instruments - the session's instruments (which syms hold coins)
 * @param ts - when the session adopted them, epoch ms
 * @returns one per open position of a derivative or equity, in the order given
 */
export function adoptedPositionsOf(
  positions: Iterable<Position>,
  instruments: readonly InstrumentSpec[],
  ts: number,
): SessionAdoptedPosition[] {
  const coinSyms = new Set(instruments.filter((s) => settlesInCoins(s.id)).map((s) => s.sym));
  const adopted: SessionAdoptedPosition[] = [];
  for (const position of positions) {
    if (position.positionQty.isZero() || coinSyms.has(position.sym)) continue;
    // NET mode signs the quantity; BOTH mode names the side.
    const short =
      position.positionSide === 'SHORT' ||
      (position.positionSide === 'NONE' && isBelowZero(position.positionQty));
    adopted.push({
      sym: position.sym,
      positionSide: position.positionSide,
      direction: short ? 'SHORT' : 'LONG',
      qty: position.positionQty.abs(),
      price: position.avgPrice,
      ts,
    });
  }
  return adopted;
}
