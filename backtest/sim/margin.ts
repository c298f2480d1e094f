import type { Dec } from '../../core/model/index.ts';
import { closesHedgeLeg, D, isAboveZero, ONE, ZERO } from '../../core/model/index.ts';
import { coinValue, coinValuerOf } from './coin-valuation.ts';
import { timesSize } from './contract-size.ts';
import { addTo } from './decimal-sums.ts';
import { markDecimalOf } from './market-state.ts';
import type { SimOrder } from './sim-order.ts';
import { type PositionValuation, type SimPosition, signedCost, unrealizedFromCost } from './sim-position.ts';
import type { SimState } from './sim-state.ts';

/**
 * Margin model (portfolio / cross margin, Keel's choice of formulas where the venue shows none):
 * - equity = sum of coin balances x coin value + unrealized PnL - loan principal x coin value;
 * - initial margin of a position = |qty| x contractSize x mark / leverage; open orders add, per
 *   position and side, the increase of that margin for the position they would leave all filled
 *   (at their limit prices, the mark for market orders): the part that closes adds nothing, and a
 *   reversal frees the margin of the position it closes (`sideCommitment` in `initial-margin.ts`);
 * - maintenance margin = |qty| x contractSize x mark x maintenance rate, plus loan value x the
 *   loan maintenance rate; available margin = equity - initial margin;
 * - liquidation starts when equity < maintenance margin (loans' included: a portfolio of loans and
 *   spot coins alone is liquidated too, `liquidation.ts`); riskRatio = maintenance margin / equity,
 *   reported as {@link UNBOUNDED_RISK_RATIO} when equity is not positive and some margin is due.
 * This file holds equity, maintenance margin and liqPrice; `initial-margin.ts` what positions and
 * open orders lock, and `portfolio-views.ts` the Positions, Accounts and Assets channel views.
 * Spot and margin instruments open no margin position (`spot-holdings.ts`): their trades move coin
 * balances, so a spot holding enters equity as its base coin's balance x coin value, and locks and
 * needs no margin (`state.positions` holds the margin positions only).
 */

/**
 * riskRatio of a portfolio with no positive equity and margin due: the ratio has no bound, and the
 * Accounts channel carries a decimal string, so a large finite value stands for it (Keel's choice).
 */
export const UNBOUNDED_RISK_RATIO = D('1e9');

/**
 * The price a position is marked at (mark, else last, else its own average price).
 * @param state - the venue
 * @param position - the position
 * @returns the mark
 */
export function markOf(state: SimState, position: SimPosition): Dec {
  const market = state.markets.get(position.sym);
  return (market ? markDecimalOf(market) : undefined) ?? position.avgPrice;
}

/**
 * An amount in the account currency: multiplied by its coin's value, or itself when the coin is a
 * valuation coin (`coinValue` gives ONE): multiplying by one changes no amount here (none has
 * more digits than the precision), and each fill's views did it for every balance and position.
 * @param amount - amount in its coin
 * @param value - the coin's value ({@link coinValue})
 * @returns the amount in the account currency
 */
export function valued(amount: Dec, value: Dec): Dec {
  return value === ONE ? amount : amount.mul(value);
}

/**
 * The contract size of an instrument (1 when the sym is unknown).
 * @param state - the venue
 * @param sym - the symbol
 * @returns its contract size
 */
export function contractSizeOf(state: SimState, sym: string): Dec {
  return state.opts.instruments.get(sym)?.contractSize ?? D(1);
}

/**
 * The value of one unit of an instrument's settle asset in the account currency ({@link coinValue}).
 * @param state - the venue
 * @param sym - the symbol
 * @returns the settle asset's value
 */
export function settleValue(state: SimState, sym: string): Dec {
  return coinValue(state, state.opts.instruments.get(sym)?.settleAsset ?? 'USDT');
}

/**
 * Unrealized PnL of a position in its settle asset.
 * @param state - the venue
 * @param position - the position
 * @returns qty x contractSize x (mark - avgPrice), from the exact cost
 */
export function unrealizedPnl(state: SimState, position: SimPosition): Dec {
  return valuationOf(state, position).unrealizedPnl;
}

/**
 * Unrealized PnL from the position's exact cost ({@link unrealizedFromCost}), so equity carries
 * no rounding noise.
 * @param position - the position
 * @param mark - its mark
 * @param size - its contract size
 * @returns the unrealized PnL in the settle asset
 */
function unrealizedOf(position: SimPosition, mark: Dec, size: Dec): Dec {
  // No mark yet: valued at its average price, so no PnL (qty x avgPrice - cost is a rounding away from zero).
  if (mark === position.avgPrice) return ZERO;
  return unrealizedFromCost(position.qty, signedCost(position), mark, size);
}

/**
 * Notional of a position at its mark in its settle asset.
 * @param state - the venue
 * @param position - the position
 * @returns |qty| x contractSize x mark
 */
export function notional(state: SimState, position: SimPosition): Dec {
  return valuationOf(state, position).notional;
}

/**
 * The position's PnL and notional at its mark, computed again only when qty, price or mark changed.
 * @param state - the venue
 * @param position - the position
 * @returns its valuation, also kept on the position for the next call
 */
export function valuationOf(state: SimState, position: SimPosition): PositionValuation {
  const mark = markOf(state, position);
  const last = position.valuation;
  if (last?.qty === position.qty && last.avgPrice === position.avgPrice && last.mark === mark) return last;
  const size = contractSizeOf(state, position.sym);
  const valuation: PositionValuation = {
    qty: position.qty,
    avgPrice: position.avgPrice,
    mark,
    unrealizedPnl: unrealizedOf(position, mark, size),
    notional: timesSize(position.qty.abs(), size).mul(mark),
  };
  position.valuation = valuation;
  return valuation;
}

/**
 * The initial margin of a position's valuation ({@link valuationOf}) at a leverage: notional /
 * leverage, kept on the valuation and computed again only when the valuation or the leverage
 * changed.
 * @param valuation - the position's valuation
 * @param leverage - its leverage
 * @returns |qty| x contractSize x mark / leverage, in the settle asset
 */
export function marginOfValuation(valuation: PositionValuation, leverage: Dec): Dec {
  if (valuation.margin?.leverage !== leverage)
    valuation.margin = { leverage, value: valuation.notional.div(leverage) };
  return valuation.margin.value;
}

/**
 * The maintenance margin of a position at its mark: notional x the sym's maintenance margin rate,
 * computed again only when the valuation or the rate changed.
 * @param state - the venue
 * @param position - the position
 * @returns |qty| x contractSize x mark x mmr, in the settle asset
 */
export function positionMaintenanceOf(state: SimState, position: SimPosition): Dec {
  const valuation = valuationOf(state, position);
  const rate = state.opts.mmrOf(position.sym);
  if (valuation.maintenance?.rate !== rate)
    valuation.maintenance = { rate, value: valuation.notional.mul(rate) };
  return valuation.maintenance.value;
}

/**
 * Equity of the portfolio in the account currency.
 * @param state - the venue
 * @returns balances + unrealized PnL - loans
 */
export function equityOf(state: SimState): Dec {
  let equity = ZERO;
  // Keys and a look-up rather than entries: an entry ([coin, balance]) is an array made per coin.
  for (const coin of state.balances.keys())
    equity = addTo(equity, valued(state.balances.get(coin) as Dec, coinValue(state, coin)));
  for (const position of state.positions.values()) {
    if (!position.qty.isZero())
      equity = addTo(equity, valued(unrealizedPnl(state, position), settleValue(state, position.sym)));
  }
  for (const loan of state.loans.values())
    equity = equity.minus(valued(loan.principal, coinValue(state, loan.coin)));
  return equity;
}

/**
 * Maintenance margin of the portfolio, optionally without the positions of one sym (for their
 * liqPrice).
 * @param state - the venue
 * @param exceptSym - a sym whose positions (both legs in BOTH mode) to leave out
 * @returns the maintenance margin in the account currency
 */
export function maintenanceMargin(state: SimState, exceptSym?: string): Dec {
  let mm = ZERO;
  for (const position of state.positions.values()) {
    if (position.sym === exceptSym || position.qty.isZero()) continue;
    mm = addTo(mm, valued(positionMaintenanceOf(state, position), settleValue(state, position.sym)));
  }
  for (const loan of state.loans.values()) {
    mm = mm.plus(
      valued(loan.principal, coinValue(state, loan.coin)).mul(state.opts.loans.maintenanceMarginRate),
    );
  }
  return mm;
}

/**
 * The position an order trades: sym|NONE in NET mode, sym|positionSide in BOTH mode.
 * @param state - the venue
 * @param sym - the symbol
 * @param positionSide - the order's position side
 * @returns the position key
 */
export function positionKeyFor(state: SimState, sym: string, positionSide: string): string {
  return `${sym}|${state.positionMode === 'NET' ? 'NONE' : positionSide}`;
}

/**
 * Whether an order may only reduce its position: reduce-only, or in BOTH mode a SELL on the LONG
 * leg or a BUY on the SHORT leg (closing a hedge leg never opens the other side).
 * @param state - the venue
 * @param order - the order
 * @returns true when fills must not increase the position
 */
export function onlyReduces(
  state: SimState,
  order: Pick<SimOrder, 'reduceOnly' | 'side' | 'positionSide'>,
): boolean {
  if (order.reduceOnly) return true;
  return state.positionMode === 'BOTH' && closesHedgeLeg(order);
}

/**
 * How much of the portfolio is in coins a sym's mark values ({@link coinValuerOf}), net of the
 * maintenance margin they carry: coin balances, less loans of those coins and their maintenance,
 * plus the PnL less the maintenance of positions on other syms settled in them. Each unit of it
 * moves equity less maintenance margin one for one with the sym's mark.
 * @param state - the venue
 * @param sym - the sym
 * @returns the amount in coin units (0 when the sym values no coin the portfolio holds or owes)
 */
function coinsValuedBy(state: SimState, sym: string): Dec {
  let amount = ZERO;
  for (const [coin, balance] of state.balances)
    if (!balance.isZero() && coinValuerOf(state, coin) === sym) amount = amount.plus(balance);
  const loanRate = state.opts.loans.maintenanceMarginRate;
  for (const loan of state.loans.values())
    if (coinValuerOf(state, loan.coin) === sym) amount = amount.minus(loan.principal.mul(loanRate.plus(1)));
  for (const position of state.positions.values()) {
    if (position.sym === sym || position.qty.isZero()) continue;
    const settle = state.opts.instruments.get(position.sym)?.settleAsset ?? 'USDT';
    if (coinValuerOf(state, settle) !== sym) continue;
    amount = amount.plus(unrealizedPnl(state, position)).minus(positionMaintenanceOf(state, position));
  }
  return amount;
}

/**
 * Estimated liquidation price of a position: the mark p of its sym at which equity equals
 * maintenance margin, other syms' marks held still. Every position on the sym moves with p, so in
 * BOTH mode the LONG and SHORT legs are solved in one equation and report the same price (as
 * Binance's hedge-mode formula does): equity + sum Q_i (p - mark) + C (p - mark) = MM_other syms
 * + sum |Q_i| p mmr, Q_i = signed qty x contract size of each position on the sym, C the coins the
 * sym's mark values net of their maintenance ({@link coinsValuedBy}: a coin held or borrowed whose
 * value is that mark moves with it too). The settle asset of the sym's own positions is held at
 * its value now (an inverse perpetual settled in the coin its own mark values would bend the line).
 * @param state - the venue
 * @param position - the position
 * @param equity - the portfolio equity when the caller has it already
 * @returns the price, 0 when the positions cannot be liquidated by their sym's price move
 */
export function liqPriceOf(state: SimState, position: SimPosition, equity: Dec = equityOf(state)): Dec {
  return liqPriceFrom(liqPriceTermsFrom(liqPriceInputsOf(state, position, equity)));
}

/** A liqPrice ({@link liqPriceOf}) before its division, so a view can divide only when read. */
export interface LiqPriceTerms {
  readonly numerator: Dec;
  readonly denominator: Dec;
}

/**
 * What a position's liqPrice ({@link liqPriceOf}) is worked out from, read off the venue's state
 * (immutable Decimals), so a view can leave the arithmetic until its liqPrice is read: a backtest
 * publishes the position with every fill and seldom reads it.
 */
export interface LiqPriceInputs {
  /** Each open leg on the sym in turn: its qty, then its mark ({@link markOf}). */
  readonly legs: readonly Dec[];
  readonly size: Dec;
  /** The settle asset's value ({@link settleValue}). */
  readonly settle: Dec;
  readonly mmr: Dec;
  /** The coins the sym's mark values, net of their maintenance ({@link coinsValuedBy}). */
  readonly coins: Dec;
  /** The sym's mark; undefined while it has no price. */
  readonly mark: Dec | undefined;
  /** The maintenance margin of the positions on other syms and of the loans. */
  readonly otherMaintenance: Dec;
  readonly equity: Dec;
}

/**
 * The inputs of a position's liqPrice in the venue's state now: only look-ups and the sums over
 * other syms, coins and loans (none while the portfolio holds one sym in its valuation coins).
 * @param state - the venue
 * @param position - the position
 * @param equity - the portfolio equity now
 * @returns the inputs; undefined for a flat position (its liqPrice is 0)
 */
export function liqPriceInputsOf(
  state: SimState,
  position: SimPosition,
  equity: Dec,
): LiqPriceInputs | undefined {
  if (position.qty.isZero()) return undefined;
  const legs: Dec[] = [];
  for (const leg of state.positions.values()) {
    if (leg.sym !== position.sym || leg.qty.isZero()) continue;
    legs.push(leg.qty, markOf(state, leg));
  }
  const market = state.markets.get(position.sym);
  return {
    legs,
    size: contractSizeOf(state, position.sym),
    settle: settleValue(state, position.sym),
    mmr: state.opts.mmrOf(position.sym),
    coins: coinsValuedBy(state, position.sym),
    mark: market ? markDecimalOf(market) : undefined,
    otherMaintenance: maintenanceMargin(state, position.sym),
    equity,
  };
}

/**
 * The terms of a liqPrice from its inputs ({@link liqPriceInputsOf}).
 * @param inputs - the inputs; undefined for a flat position
 * @returns numerator and denominator; undefined when the price is 0 whatever they are (a flat
 *   position, or one its sym's price move cannot liquidate)
 */
export function liqPriceTermsFrom(inputs: LiqPriceInputs | undefined): LiqPriceTerms | undefined {
  if (inputs === undefined) return undefined;
  const { legs, size, settle } = inputs;
  let q = ZERO;
  let absQ = ZERO;
  let atMark = ZERO;
  for (let i = 0; i < legs.length; i += 2) {
    const signed = valued(timesSize(legs[i] as Dec, size), settle);
    q = addTo(q, signed);
    absQ = addTo(absQ, signed.abs());
    atMark = addTo(atMark, signed.mul(legs[i + 1] as Dec));
  }
  let denominator = q.minus(absQ.mul(inputs.mmr));
  const { coins, mark, equity, otherMaintenance } = inputs;
  if (!coins.isZero() && mark !== undefined) {
    denominator = denominator.plus(coins);
    atMark = atMark.plus(coins.mul(mark));
  }
  if (denominator.isZero()) return undefined;
  // 0 - equity is -equity: no subtraction when no other sym holds margin (a non-zero equity).
  const short = otherMaintenance === ZERO && !equity.isZero() ? equity.neg() : otherMaintenance.minus(equity);
  return { numerator: short.plus(atMark), denominator };
}

/**
 * The liqPrice of its terms ({@link liqPriceTermsOf}).
 * @param terms - the terms; undefined for none
 * @returns numerator / denominator when positive, else 0
 */
export function liqPriceFrom(terms: LiqPriceTerms | undefined): Dec {
  if (terms === undefined) return ZERO;
  const price = terms.numerator.div(terms.denominator);
  return isAboveZero(price) ? price : ZERO;
}
