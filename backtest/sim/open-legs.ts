import { markPriceOf } from './market-state.ts';
import type { OpenLeg } from './open-leg.ts';
import type { SimState } from './sim-state.ts';

/**
 * The margin positions with a non-zero qty, in the venue's order of positions, read off the
 * positions once per move of the portfolio (`portfolioVersion`): the equity estimate, the margin
 * watch and the bar liquidation screen walk them on every bar or market event, and looked up each
 * position's market and settle asset every time.
 * @param state - the venue
 * @returns the open legs, in the order `state.positions` holds them
 */
export function openLegsOf(state: SimState): readonly OpenLeg[] {
  const figures = state.figures;
  if (figures.openLegsAt !== state.portfolioVersion) {
    const legs: OpenLeg[] = [];
    for (const position of state.positions.values()) {
      if (position.qtyN === 0) continue;
      const settle = state.opts.instruments.get(position.sym)?.settleAsset ?? 'USDT';
      legs.push({
        position,
        market: state.markets.get(position.sym),
        settle,
        settleValued: state.opts.valuationCoins.has(settle),
      });
    }
    figures.openLegs = legs;
    figures.openLegsAt = state.portfolioVersion;
  }
  return figures.openLegs;
}

/**
 * The mark a leg is valued at now (`markPriceOf` its sym's market).
 * @param state - the venue
 * @param leg - an open leg
 * @returns the mark, NaN when the sym has no price yet
 */
export function legMarkOf(state: SimState, leg: OpenLeg): number {
  leg.market ??= state.markets.get(leg.position.sym);
  return leg.market === undefined ? Number.NaN : markPriceOf(leg.market);
}
