import type { Dec } from '../../core/model/index.ts';
import { D, decimalOf, ZERO } from '../../core/model/index.ts';
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

/** A coin's value in the account currency, as a number: 1 for valuation coins, NaN when unknown. */
function coinValueN(state: SimState, coin: string): number {
  if (state.opts.valuationCoins.has(coin)) return 1;
  for (const spec of state.opts.instruments.values()) {
    if (spec.id.kind !== 'crypto' || spec.id.base !== coin || !state.opts.valuationCoins.has(spec.id.quote))
      continue;
    const market = state.markets.get(spec.sym);
    const price = market ? markPriceOf(market) : Number.NaN;
    if (!Number.isNaN(price)) return price;
  }
  return Number.NaN;
}

/** Decimal of a captured coin value, as `coinValue` makes it (1, the mark, or 0 when unknown). */
function coinDec(value: number): Dec {
  return value === 1 ? D(1) : Number.isNaN(value) ? ZERO : decimalOf(value);
}

/**
 * Captures what the exact equity depends on now (the immutable Decimal balances, positions and
 * loans, and the prices they are valued at, as numbers) and returns a function computing it
 * later, exactly as `equityOf` would have now. Capturing costs a few reads; the Decimal work is
 * done only if the value is asked for, e.g. when a sample turns out to be a bucket's extreme.
 * @param state - the venue
 * @returns a function giving the equity at capture time
 */
export function equitySnapshotOf(state: SimState): () => Dec {
  const balances: [Dec, number][] = [];
  for (const [coin, balance] of state.balances) balances.push([balance, coinValueN(state, coin)]);
  const positions: [qty: Dec, size: Dec, avg: Dec, mark: number, settle: number][] = [];
  for (const position of state.positions.values()) {
    if (position.qty.isZero()) continue;
    const spec = state.opts.instruments.get(position.sym);
    const market = state.markets.get(position.sym);
    positions.push([
      position.qty,
      spec?.contractSize ?? D(1),
      position.avgPrice,
      market ? markPriceOf(market) : Number.NaN,
      coinValueN(state, spec?.settleAsset ?? 'USDT'),
    ]);
  }
  const loans: [Dec, number][] = [];
  for (const loan of state.loans.values()) loans.push([loan.principal, coinValueN(state, loan.coin)]);
  return () => {
    let equity = ZERO;
    for (const [balance, value] of balances) equity = equity.plus(balance.mul(coinDec(value)));
    for (const [qty, size, avg, mark, settle] of positions) {
      const markDec = Number.isNaN(mark) ? avg : decimalOf(mark);
      equity = equity.plus(qty.mul(size).mul(markDec.minus(avg)).mul(coinDec(settle)));
    }
    for (const [principal, value] of loans) equity = equity.minus(principal.mul(coinDec(value)));
    return equity;
  };
}
