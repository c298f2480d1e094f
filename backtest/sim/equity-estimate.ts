import { coinValue } from './margin.ts';
import { markPriceOf } from './market-state.ts';
import type { SimState } from './sim-state.ts';

/**
 * Equity on numbers, for deciding cheaply when the exact (Decimal) equity is worth computing, e.g.
 * whether a sample may be a new low or high of an equity curve's bucket. Same formula as the
 * Decimal equity (balances x coin value + unrealized PnL - loans x coin value) on the number
 * mirrors of balances and positions, so it may differ from it by float rounding only.
 * @param state - the venue
 * @returns the estimate in the account currency
 */
export function equityEstimateOf(state: SimState): number {
  let equity = 0;
  for (const [coin, balance] of state.balancesN) {
    equity += state.opts.valuationCoins.has(coin) ? balance : balance * coinValue(state, coin).toNumber();
  }
  for (const position of state.positions.values()) {
    if (position.qtyN === 0) continue;
    const market = state.markets.get(position.sym);
    const mark = market ? markPriceOf(market) : Number.NaN;
    if (Number.isNaN(mark)) continue;
    const settle = state.opts.instruments.get(position.sym)?.settleAsset ?? 'USDT';
    const pnl = position.qtyN * position.contractSizeN * (mark - position.avgN);
    equity += state.opts.valuationCoins.has(settle) ? pnl : pnl * coinValue(state, settle).toNumber();
  }
  for (const loan of state.loans.values()) {
    equity -= loan.principal.toNumber() * coinValue(state, loan.coin).toNumber();
  }
  return equity;
}
