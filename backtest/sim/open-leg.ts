import type { SymMarket } from './market-state.ts';
import type { SimPosition } from './sim-position.ts';

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
