import type { AdlRankEvent } from '../../core/model/index.ts';
import { asNumber, isPerpetual, ONE } from '../../core/model/index.ts';
import { equityOf, markOf, unrealizedPnl } from './margin.ts';
import { SimVenueError } from './sim-errors.ts';
import type { SimPosition } from './sim-position.ts';
import type { SimState } from './sim-state.ts';
import { isAssetSettledSym } from './spot-holdings.ts';

/**
 * ADL rank of a position, 1 (last to be deleveraged) to 5 (first). The venue does not publish its
 * formula; Keel's choice follows the common one: score = PnL% x effective leverage, where PnL% =
 * unrealized PnL / entry notional and effective leverage = notional / equity; losing positions
 * score PnL% / effective leverage. The score is bucketed by the configured thresholds.
 * @param state - the venue
 * @param position - an open position
 * @param equity - the portfolio equity (number)
 * @returns the rank 1..5, 0 for a flat position and a spot holding (nothing to deleverage)
 */
export function adlRankOf(state: SimState, position: SimPosition, equity: number): number {
  if (position.qty.isZero() || isAssetSettledSym(state, position.sym)) return 0;
  const contractSize = asNumber(state.opts.instruments.get(position.sym)?.contractSize ?? ONE);
  const entry = Math.abs(position.qtyN) * contractSize * position.avgN;
  const notional = Math.abs(position.qtyN) * contractSize * asNumber(markOf(state, position));
  const pnlPct = entry > 0 ? asNumber(unrealizedPnl(state, position)) / entry : 0;
  const leverage = equity > 0 ? notional / equity : asNumber(position.leverage);
  const score = pnlPct >= 0 ? pnlPct * leverage : pnlPct / Math.max(leverage, 1e-12);
  const thresholds = state.opts.adlScoreThresholds;
  let rank = 1;
  for (const threshold of thresholds) if (score > threshold) rank++;
  return rank;
}

/**
 * ADL rank of open positions, as GET /api/v1/adl/rank answers.
 * @param state - the venue
 * @param sym - only this pair; omitted = every position with non-zero size
 * @returns one event per position, rejected with SimVenueError 401011 when sym is unknown or not
 *   a perpetual (not ADL-monitored)
 */
export function adlRanksOf(state: SimState, sym?: string): Promise<AdlRankEvent[]> {
  if (sym !== undefined) {
    const spec = state.opts.instruments.get(sym);
    if (spec === undefined || !isPerpetual(spec.id)) {
      return Promise.reject(new SimVenueError('ADL_SYM_NOT_SUPPORTED', sym));
    }
  }
  const equity = asNumber(equityOf(state));
  const ranks = [...state.positions.values()]
    .filter((p) => !p.qty.isZero() && (sym === undefined || p.sym === sym))
    .map(
      (p): AdlRankEvent => ({
        kind: 'adlRank',
        ts: state.now,
        recvTs: state.now,
        sym: p.sym,
        positionId: `${p.sym}|${p.positionSide}`,
        positionSide: p.positionSide,
        rank: adlRankOf(state, p, equity),
      }),
    );
  return Promise.resolve(ranks);
}
