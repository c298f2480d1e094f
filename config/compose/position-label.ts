import type { Position } from '../../core/model/index.ts';

/**
 * A position as a session's notes and warnings name it: sym, leg (in BOTH mode) and signed
 * quantity, e.g. `BINANCE_PERP_BTC_USDT LONG 0.5`, or `BINANCE_PERP_BTC_USDT -0.04` in NET mode.
 * @param p - the position
 * @returns the label
 */
export function positionLabel(p: Pick<Position, 'sym' | 'positionSide' | 'positionQty'>): string {
  return `${p.sym} ${p.positionSide === 'NONE' ? '' : `${p.positionSide} `}${p.positionQty.toFixed()}`;
}
