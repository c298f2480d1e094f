import type { RoundTripTrade } from '../../backtest/report/index.ts';
import { D } from '../../core/model/index.ts';

/**
 * A closed long round trip of 1 BINANCE_PERP_BTC_USDT entered at 100 at time 0, without fees.
 * @param pnl - its PnL, which is also its exit price's distance from 100
 * @param returnFraction - its return (default pnl / 100, the PnL over the entry notional)
 * @param durationMs - how long it was open (default one day)
 * @returns the trade
 */
export function aRoundTripTrade(
  pnl: number,
  returnFraction = pnl / 100,
  durationMs = 86_400_000,
): RoundTripTrade {
  return {
    sym: 'BINANCE_PERP_BTC_USDT',
    positionSide: 'NONE',
    direction: 'LONG',
    qty: D(1),
    entryTs: 0,
    exitTs: durationMs,
    entryPrice: D(100),
    exitPrice: D(100 + pnl),
    entryOrderId: 'o1',
    exitOrderId: 'o2',
    grossPnl: D(pnl),
    fees: D(0),
    pnl: D(pnl),
    returnFraction,
    durationMs,
  };
}
