import type { Dec, PositionSide } from '../model/index.ts';
import { decimalOf, ZERO } from '../model/index.ts';
import type { PositionLeg } from './position-leg.ts';

/** A position as the portfolio holds it, with its PnL. */
export interface PortfolioPosition {
  readonly sym: string;
  readonly positionSide: PositionSide;
  /** Signed quantity in contracts (long > 0). */
  readonly qty: Dec;
  readonly avgPrice: Dec;
  readonly realizedPnl: Dec;
  /** Unrealized PnL at the last mark; zero when the sym was never marked. */
  readonly unrealizedPnl: Dec;
  /** The last mark price, undefined when never marked. */
  readonly markPrice: number | undefined;
  readonly settleAsset: string;
}

/** A leg the portfolio has traded, with its instrument's contract size and settlement asset. */
export interface LegEntry {
  readonly sym: string;
  readonly positionSide: PositionSide;
  readonly contractSize: Dec;
  readonly settleAsset: string;
  leg: PositionLeg;
}

/**
 * A leg's unrealized PnL: qty x contract size x (mark - average price).
 * @param entry - the leg
 * @param mark - its sym's last mark, undefined when never marked
 * @returns the PnL, zero when flat or never marked
 */
export function legUnrealized(entry: LegEntry, mark: number | undefined): Dec {
  if (mark === undefined || entry.leg.qty.isZero()) return ZERO;
  return entry.leg.qty.mul(entry.contractSize).mul(decimalOf(mark).sub(entry.leg.avgPrice));
}

/**
 * A traded leg as a position, valued at its sym's last mark.
 * @param entry - the leg
 * @param mark - its sym's last mark, undefined when never marked
 * @returns the position
 */
export function positionOfLeg(entry: LegEntry, mark: number | undefined): PortfolioPosition {
  return {
    sym: entry.sym,
    positionSide: entry.positionSide,
    qty: entry.leg.qty,
    avgPrice: entry.leg.avgPrice,
    realizedPnl: entry.leg.realizedPnl,
    unrealizedPnl: legUnrealized(entry, mark),
    markPrice: mark,
    settleAsset: entry.settleAsset,
  };
}
