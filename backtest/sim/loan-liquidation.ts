import type { Dec, InstrumentSpec, OrderSide } from '../../core/model/index.ts';
import { D, ZERO } from '../../core/model/index.ts';
import { markOf, unrealizedPnl } from './margin.ts';
import { markDecimalOf } from './market-state.ts';
import type { SimPosition } from './sim-position.ts';
import type { SimLoan, SimState } from './sim-state.ts';
import { isAssetSettled, tradedCoins } from './spot-holdings.ts';

/*
 * How the liquidation repays a loan (Keel's choice; the spec shows the LOANS_FROZEN node and the
 * LIQUIDATION_FEE statement type, not the steps). A loan is repaid in full from the balance of its
 * coin. When that balance is short, the coin is first raised on the spot (asset-settled)
 * instruments at the mark, paying the instrument's liquidation fee as a position close does:
 * - a borrowed coin that is not a valuation coin (ETH lent for a short sale) is bought back on a
 *   `{coin}/{valuation coin}` instrument (the loan's exchange first), principal plus the interest
 *   the balance owes, rounded up to the lot;
 * - a borrowed valuation coin (USDT lent to buy ETH) is raised by selling the coins held beyond
 *   their own loans on `{coin}/{that valuation coin}` instruments, largest holding value first,
 *   each just enough (rounded up to the lot, at most what is held) to cover what is short after
 *   the liquidation fee.
 * What cannot be raised (nothing left to sell) is repaid all the same: the balance goes negative,
 * as a perpetual's loss past its margin does (no insurance fund).
 */

/** One trade the liquidation makes on a spot instrument to raise a loan's coin. */
export interface LoanTrade {
  readonly spec: InstrumentSpec;
  readonly side: OrderSide;
  readonly qty: Dec;
  readonly price: Dec;
}

/** How one loan is repaid: the trades that raise its coin first, then its whole principal. */
export interface LoanRepayment {
  readonly loan: SimLoan;
  readonly trades: readonly LoanTrade[];
}

/** Balances as the liquidation leaves them step by step, and the loan principal still owed per coin. */
export interface Projection {
  readonly balances: Map<string, Dec>;
  readonly owed: Map<string, Dec>;
}

/**
 * The balances and loans now, with the closes of the given margin positions at their marks booked
 * (their unrealized PnL settled into the settle asset, less the liquidation fee), as the
 * liquidation leaves them before it repays loans.
 * @param state - the venue
 * @param closed - the margin positions the liquidation closes first
 * @returns a projection the planning below moves along
 */
export function projectionAfter(state: SimState, closed: readonly SimPosition[]): Projection {
  const balances = new Map(state.balances);
  for (const position of closed) {
    const spec = state.opts.instruments.get(position.sym);
    if (spec === undefined) continue;
    const fee = position.qty
      .abs()
      .mul(spec.contractSize)
      .mul(markOf(state, position))
      .mul(spec.liquidationFee);
    add(balances, spec.settleAsset, unrealizedPnl(state, position).minus(fee));
  }
  const owed = new Map<string, Dec>();
  for (const loan of state.loans.values()) add(owed, loan.coin, loan.principal);
  return { balances, owed };
}

function add(map: Map<string, Dec>, coin: string, amount: Dec): void {
  map.set(coin, (map.get(coin) ?? ZERO).plus(amount));
}

/** The mark of an instrument, undefined when it has none yet or it is not positive. */
function markOfSym(state: SimState, sym: string): Dec | undefined {
  const market = state.markets.get(sym);
  const mark = market ? markDecimalOf(market) : undefined;
  return mark?.gt(0) ? mark : undefined;
}

/** `qty` rounded up to the instrument's lot (itself when the instrument has none). */
function upToLot(spec: InstrumentSpec, qty: Dec): Dec {
  return spec.lotSize.gt(0) ? qty.div(spec.lotSize).ceil().mul(spec.lotSize) : qty;
}

/** The spot instruments trading `base` against `quote` with a mark, the loan's exchange first, then by sym. */
function spotMarkets(state: SimState, loan: SimLoan, base: string | undefined, quote: string) {
  const found: { spec: InstrumentSpec; mark: Dec }[] = [];
  for (const spec of state.opts.instruments.values()) {
    if (!isAssetSettled(spec) || spec.id.kind !== 'crypto') continue;
    const coins = tradedCoins(spec);
    if (coins.quote !== quote || (base !== undefined && coins.base !== base)) continue;
    if (state.opts.valuationCoins.has(coins.base)) continue;
    const mark = markOfSym(state, spec.sym);
    if (mark !== undefined) found.push({ spec, mark });
  }
  const home = (spec: InstrumentSpec) =>
    spec.id.kind === 'crypto' && spec.id.exchangeType === loan.exchange ? 0 : 1;
  return found.sort((a, b) => home(a.spec) - home(b.spec) || (a.spec.sym < b.spec.sym ? -1 : 1));
}

/**
 * The liquidation fee a loan's trade pays: its notional x the instrument's liquidation fee.
 * @param trade - the trade
 * @returns the fee, in the instrument's quote (settle) coin
 */
export function feeOf(trade: LoanTrade): Dec {
  return trade.qty.mul(trade.spec.contractSize).mul(trade.price).mul(trade.spec.liquidationFee);
}

/** Books a trade at its price with its liquidation fee into the projection. */
function book(projection: Projection, trade: LoanTrade): void {
  const { base, quote } = tradedCoins(trade.spec);
  const units = trade.qty.mul(trade.spec.contractSize);
  const value = units.mul(trade.price);
  add(projection.balances, base, trade.side === 'BUY' ? units : units.neg());
  add(projection.balances, quote, (trade.side === 'BUY' ? value.neg() : value).minus(feeOf(trade)));
}

/** Buys back a borrowed coin that is not a valuation coin: what the balance is short, up to the lot. */
function buyBack(state: SimState, loan: SimLoan, short: Dec, projection: Projection): LoanTrade[] {
  for (const quote of state.opts.valuationCoins) {
    const market = spotMarkets(state, loan, loan.coin, quote)[0];
    if (market === undefined) continue;
    const qty = upToLot(market.spec, short.div(market.spec.contractSize));
    const trade: LoanTrade = { spec: market.spec, side: 'BUY', qty, price: market.mark };
    book(projection, trade);
    return [trade];
  }
  return [];
}

/** Sells coins held beyond their own loans to raise a borrowed valuation coin, largest holding first. */
function sellHoldings(state: SimState, loan: SimLoan, short: Dec, projection: Projection): LoanTrade[] {
  const free = (coin: string) =>
    (projection.balances.get(coin) ?? ZERO).minus(D.max(projection.owed.get(coin) ?? ZERO, ZERO));
  const markets = spotMarkets(state, loan, undefined, loan.coin)
    .map((m) => ({ ...m, value: free(tradedCoins(m.spec).base).mul(m.mark) }))
    .filter((m) => m.value.gt(0))
    .sort((a, b) => b.value.comparedTo(a.value));
  const trades: LoanTrade[] = [];
  let missing = short;
  for (const { spec, mark } of markets) {
    if (!missing.gt(0)) break;
    const held = free(tradedCoins(spec).base).div(spec.contractSize);
    if (!held.gt(0)) continue;
    const net = mark.mul(spec.contractSize).mul(D(1).minus(spec.liquidationFee));
    if (!net.gt(0)) continue;
    const qty = D.min(upToLot(spec, missing.div(net)), held);
    const trade: LoanTrade = { spec, side: 'SELL', qty, price: mark };
    missing = missing.minus(qty.mul(net));
    book(projection, trade);
    trades.push(trade);
  }
  return trades;
}

/**
 * Plans the repayment of one loan from the projected balances (see the model above) and moves the
 * projection past it: the trades that raise its coin, then the repayment of its whole principal.
 * @param state - the venue
 * @param loan - the loan to repay
 * @param projection - balances and loans as the liquidation leaves them so far; updated
 * @returns the loan and the trades that raise its coin
 */
export function planRepayment(state: SimState, loan: SimLoan, projection: Projection): LoanRepayment {
  // A negative balance (interest charged in the coin beyond what is held) is owed too.
  const short = loan.principal.minus(projection.balances.get(loan.coin) ?? ZERO);
  let trades: LoanTrade[] = [];
  if (short.gt(0)) {
    trades = state.opts.valuationCoins.has(loan.coin)
      ? sellHoldings(state, loan, short, projection)
      : buyBack(state, loan, short, projection);
  }
  add(projection.balances, loan.coin, loan.principal.neg());
  add(projection.owed, loan.coin, loan.principal.neg());
  return { loan, trades };
}
