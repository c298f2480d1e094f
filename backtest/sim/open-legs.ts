import { markPriceOf, type SymMarket } from './market-state.ts';
import type { SimPosition } from './sim-position.ts';
import type { SimState } from './sim-state.ts';

/**
 * An open margin position with what the per-event estimates look up for it: its sym's market
 * (found once it exists) and its settle asset, and whether that is a valuation coin.
 */
export interface OpenLeg {
  readonly position: SimPosition;
  /** The sym's market, undefined until the sym has one (looked up again until then). */
  market: SymMarket | undefined;
  readonly settle: string;
  /** Whether the settle asset is a valuation coin (worth 1 whatever the marks). */
  readonly settleValued: boolean;
}

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
