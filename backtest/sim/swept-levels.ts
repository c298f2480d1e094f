import type { BookLevel } from '../../core/model/index.ts';
import type { SymMarket } from './market-state.ts';

/**
 * The levels an arriving order takes on a side a print went through since the last quote or book:
 * the print proves the displayed levels better than its price were taken ("a print through our
 * price shows our level was emptied first", as for resting orders), so the side starts at the
 * print's price, with what is left of the print's size there (Keel's choice, the conservative one:
 * what rests at that price after the print is unknown, and the print is all the data shows traded
 * there), then the displayed levels beyond it. Allocates only when the side was swept.
 * @param levels - the side's displayed levels, best first (not empty)
 * @param sweptAt - the price of the latest print through them, NaN when none
 * @param left - what is left of that print for the sim's orders
 * @param asks - whether the side is the asks (worse = higher) rather than the bids
 * @returns the displayed levels themselves when the side was not swept, else the swept view
 */
export function sweptLevels(
  levels: readonly BookLevel[],
  sweptAt: number,
  left: number,
  asks: boolean,
): readonly BookLevel[] {
  if (Number.isNaN(sweptAt)) return levels;
  let beyond = 0;
  while (beyond < levels.length) {
    const price = (levels[beyond] as BookLevel)[0];
    if (asks ? price > sweptAt : price < sweptAt) break;
    beyond++;
  }
  return [[sweptAt, Math.max(0, left)], ...levels.slice(beyond)];
}

/**
 * Counts what the sim's orders took of the level a print through one side left (`sweptLevels`):
 * arriving orders that took it, resting orders the print filled.
 * @param market - the sym's state, mutated
 * @param asks - the asks' swept level (taken by buyers) rather than the bids'
 * @param qty - the quantity taken
 */
export function takeFromSwept(market: SymMarket, asks: boolean, qty: number): void {
  if (asks) market.asksSweptLeft -= qty;
  else market.bidsSweptLeft -= qty;
}
