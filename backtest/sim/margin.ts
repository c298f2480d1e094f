import type { Account, AccountStatus, Asset, Dec, Position } from '../../core/model/index.ts';
import { D, decimalOf, ONE, ZERO } from '../../core/model/index.ts';
import { markDecimalOf, markPriceOf } from './market-state.ts';
import type { SimOrder } from './sim-order.ts';
import { type PositionValuation, reducibleQty, type SimPosition } from './sim-position.ts';
import type { SimState } from './sim-state.ts';

/**
 * Margin model (portfolio / cross margin, Keel's choice of formulas where the venue shows none):
 * - equity = sum of coin balances x coin value + unrealized PnL - loan principal x coin value;
 * - initial margin of a position = |qty| x contractSize x mark / leverage; open orders add, per
 *   position and side, the increase of that margin for the position they would leave all filled
 *   (at their limit prices, the mark for market orders): the part that closes adds nothing, and a
 *   reversal frees the margin of the position it closes (`sideCommitment`);
 * - maintenance margin = |qty| x contractSize x mark x maintenance rate, plus loan value x the
 *   loan maintenance rate; available margin = equity - initial margin;
 * - liquidation starts when equity < maintenance margin; riskRatio = maintenance margin / equity,
 *   reported as {@link UNBOUNDED_RISK_RATIO} when equity is not positive and some margin is due.
 */

/**
 * riskRatio of a portfolio with no positive equity and margin due: the ratio has no bound, and the
 * Accounts channel carries a decimal string, so a large finite value stands for it (Keel's choice).
 */
export const UNBOUNDED_RISK_RATIO = D('1e9');

/**
 * The value of one unit of a coin in the account currency: 1 for valuation coins, else the mark of
 * a `{coin}/{valuation coin}` instrument; 0 when unknown.
 * @param state - the venue
 * @param coin - the coin
 * @returns its value
 */
export function coinValue(state: SimState, coin: string): Dec {
  if (state.opts.valuationCoins.has(coin)) return ONE;
  for (const spec of state.opts.instruments.values()) {
    if (spec.id.kind !== 'crypto' || spec.id.base !== coin || !state.opts.valuationCoins.has(spec.id.quote))
      continue;
    const market = state.markets.get(spec.sym);
    const price = market ? markDecimalOf(market) : undefined;
    if (price) return price;
  }
  return ZERO;
}

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

function contractSizeOf(state: SimState, sym: string): Dec {
  return state.opts.instruments.get(sym)?.contractSize ?? D(1);
}

function settleValue(state: SimState, sym: string): Dec {
  return coinValue(state, state.opts.instruments.get(sym)?.settleAsset ?? 'USDT');
}

/**
 * Unrealized PnL of a position in its settle asset.
 * @param state - the venue
 * @param position - the position
 * @returns qty x contractSize x (mark - avgPrice)
 */
export function unrealizedPnl(state: SimState, position: SimPosition): Dec {
  return valuationOf(state, position).unrealizedPnl;
}

function notional(state: SimState, position: SimPosition): Dec {
  return valuationOf(state, position).notional;
}

/** The position's PnL and notional at its mark, computed again only when qty, price or mark changed. */
function valuationOf(state: SimState, position: SimPosition): PositionValuation {
  const mark = markOf(state, position);
  const last = position.valuation;
  if (last?.qty === position.qty && last.avgPrice === position.avgPrice && last.mark === mark) return last;
  const contracts = position.qty.mul(contractSizeOf(state, position.sym));
  const valuation: PositionValuation = {
    qty: position.qty,
    avgPrice: position.avgPrice,
    mark,
    unrealizedPnl: contracts.mul(mark.minus(position.avgPrice)),
    notional: position.qty.abs().mul(contractSizeOf(state, position.sym)).mul(mark),
  };
  position.valuation = valuation;
  return valuation;
}

function positionMM(state: SimState, position: SimPosition): Dec {
  return notional(state, position).mul(state.opts.mmrOf(position.sym));
}

/**
 * Equity of the portfolio in the account currency.
 * @param state - the venue
 * @returns balances + unrealized PnL - loans
 */
export function equityOf(state: SimState): Dec {
  let equity = ZERO;
  for (const [coin, balance] of state.balances) equity = equity.plus(valued(balance, coinValue(state, coin)));
  for (const position of state.positions.values()) {
    if (!position.qty.isZero())
      equity = equity.plus(valued(unrealizedPnl(state, position), settleValue(state, position.sym)));
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
    mm = mm.plus(valued(positionMM(state, position), settleValue(state, position.sym)));
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
  if (state.positionMode !== 'BOTH') return false;
  return (
    (order.positionSide === 'LONG' && order.side === 'SELL') ||
    (order.positionSide === 'SHORT' && order.side === 'BUY')
  );
}

/** What an order commits beyond what the position and the other open orders commit already. */
export interface OrderCommitment {
  /** The initial margin it adds, in the account currency (0 when it adds none). */
  readonly margin: Dec;
  /**
   * Notional of its opening part (qty x contract size x price, in the settle asset): the part
   * that opens or adds to a position after its own and earlier orders' closing parts.
   */
  readonly openingNotional: Dec;
}

const NO_COMMITMENT: OrderCommitment = { margin: ZERO, openingNotional: ZERO };

/** Limit price, or the mark for a market order (0 while its sym has no price). */
function orderPriceOf(state: SimState, order: SimOrder): Dec {
  if (!order.price.isZero()) return order.price;
  const market = state.markets.get(order.sym);
  const mark = market ? markPriceOf(market) : Number.NaN;
  return Number.isNaN(mark) ? ZERO : decimalOf(mark);
}

/**
 * Initial margin locked by the open orders of one position on one side (in placement order, none
 * of them only reducing), beyond the position's own margin, in the settle asset. The orders fill
 * in placement order: their first parts close what the position holds on the other side, the rest
 * opens. They lock the increase of the margin of the position they would leave, all filled, over
 * the margin of the position now: on a flat position or one on their side, all of their notional
 * / leverage; against one on the other side, what the opening part needs beyond the margin the
 * closing part frees (a reversal needs the margin of the position it leaves, not that plus the
 * margin of the one it closes), never less than 0.
 * @param state - the venue
 * @param orders - the open orders of one position key and side, placement order
 * @param target - an order among them whose opening notional to report
 * @returns the margin (settle asset) and the target's opening notional
 */
function sideCommitment(state: SimState, orders: readonly SimOrder[], target?: SimOrder): OrderCommitment {
  const first = orders[0];
  if (first === undefined) return NO_COMMITMENT;
  const position = state.positions.get(positionKeyFor(state, first.sym, first.positionSide));
  const closable = position ? reducibleQty(position.qty, first.side) : ZERO;
  const size = contractSizeOf(state, first.sym);
  let left = closable;
  let openingValue = ZERO;
  let targetOpening = ZERO;
  for (const order of orders) {
    const remaining = order.qty.minus(order.filled);
    const closing = D.min(left, remaining);
    left = left.minus(closing);
    const opening = remaining.minus(closing);
    if (!opening.gt(0)) continue;
    const value = opening.mul(size).mul(orderPriceOf(state, order));
    openingValue = openingValue.plus(value);
    if (order === target) targetOpening = value;
  }
  let margin = openingValue.div(state.opts.leverageOf(first.sym));
  if (position && closable.gt(0))
    margin = D.max(ZERO, margin.minus(notional(state, position).div(position.leverage)));
  return { margin, openingNotional: targetOpening };
}

/** Groups the live orders that may open a position by position key and side, in placement order. */
function openingOrdersBySide(state: SimState): Map<string, SimOrder[]> {
  const groups = new Map<string, SimOrder[]>();
  for (const order of state.liveOrders) {
    if (onlyReduces(state, order) || !order.qty.gt(order.filled)) continue;
    const key = `${positionKeyFor(state, order.sym, order.positionSide)}|${order.side}`;
    const group = groups.get(key);
    if (group) group.push(order);
    else groups.set(key, [order]);
  }
  return groups;
}

/**
 * What an order commits on top of its position and the other open orders: the increase of the
 * initial margin of its position and side with it (see `sideCommitment`: nothing for the part
 * that closes, and a reversal is credited the margin it frees), and the notional of its opening
 * part. Orders that only reduce commit nothing. The order need not be registered: one with the
 * same orderId among the live orders stands for it.
 * @param state - the venue
 * @param order - the order
 * @returns its margin in the account currency and its opening notional in the settle asset
 */
export function orderCommitment(state: SimState, order: SimOrder): OrderCommitment {
  if (onlyReduces(state, order) || !order.qty.gt(order.filled)) return NO_COMMITMENT;
  const key = positionKeyFor(state, order.sym, order.positionSide);
  const others: SimOrder[] = [];
  for (const other of state.liveOrders) {
    if (other.orderId === order.orderId || other.side !== order.side || other.sym !== order.sym) continue;
    if (positionKeyFor(state, other.sym, other.positionSide) !== key) continue;
    if (!onlyReduces(state, other) && other.qty.gt(other.filled)) others.push(other);
  }
  const at = others.findIndex((other) => other.seq > order.seq);
  const withOrder = at < 0 ? [...others, order] : [...others.slice(0, at), order, ...others.slice(at)];
  const { margin, openingNotional } = sideCommitment(state, withOrder, order);
  const added = margin.minus(sideCommitment(state, others).margin);
  return { margin: valued(D.max(ZERO, added), settleValue(state, order.sym)), openingNotional };
}

/**
 * Initial margin an order would lock: the increase of its position's margin requirement with it
 * (`orderCommitment`).
 * @param state - the venue
 * @param order - the order
 * @returns the margin in the account currency
 */
export function orderMargin(state: SimState, order: SimOrder): Dec {
  return orderCommitment(state, order).margin;
}

/**
 * Initial margin locked by positions and open orders (orders per position and side, as
 * `sideCommitment` counts them).
 * @param state - the venue
 * @returns the margin in the account currency
 */
export function initialMargin(state: SimState): Dec {
  let im = ZERO;
  for (const position of state.positions.values()) {
    if (!position.qty.isZero())
      im = im.plus(
        valued(notional(state, position).div(position.leverage), settleValue(state, position.sym)),
      );
  }
  for (const orders of openingOrdersBySide(state).values()) {
    const sym = (orders[0] as SimOrder).sym;
    im = im.plus(valued(sideCommitment(state, orders).margin, settleValue(state, sym)));
  }
  return im;
}

/**
 * Available margin: equity minus the initial margin of positions and open orders.
 * @param state - the venue
 * @returns the margin in the account currency (negative when over-committed)
 */
export function availableMargin(state: SimState): Dec {
  return equityOf(state).minus(initialMargin(state));
}

/**
 * Estimated liquidation price of a position: the mark p of its sym at which equity equals
 * maintenance margin, other syms' marks held still. Every position on the sym moves with p, so in
 * BOTH mode the LONG and SHORT legs are solved in one equation and report the same price (as
 * Binance's hedge-mode formula does): equity + sum Q_i (p - mark) = MM_other syms + sum |Q_i| p
 * mmr, Q_i = signed qty x contract size of each position on the sym.
 * @param state - the venue
 * @param position - the position
 * @param equity - the portfolio equity when the caller has it already
 * @returns the price, 0 when the positions cannot be liquidated by their sym's price move
 */
export function liqPriceOf(state: SimState, position: SimPosition, equity: Dec = equityOf(state)): Dec {
  if (position.qty.isZero()) return ZERO;
  const size = contractSizeOf(state, position.sym);
  const settle = settleValue(state, position.sym);
  let q = ZERO;
  let absQ = ZERO;
  let atMark = ZERO;
  for (const leg of state.positions.values()) {
    if (leg.sym !== position.sym || leg.qty.isZero()) continue;
    const signed = valued(leg.qty.mul(size), settle);
    q = q.plus(signed);
    absQ = absQ.plus(signed.abs());
    atMark = atMark.plus(signed.mul(markOf(state, leg)));
  }
  const denominator = q.minus(absQ.mul(state.opts.mmrOf(position.sym)));
  if (denominator.isZero()) return ZERO;
  const price = maintenanceMargin(state, position.sym).minus(equity).plus(atMark).div(denominator);
  return price.gt(0) ? price : ZERO;
}

/**
 * The Positions-channel view of a position.
 * @param state - the venue
 * @param position - the position
 * @param equity - the portfolio equity now
 * @param adlRank - the ADL rank now (`adlRankOf`): the caller computes it when the view is made,
 *   as the rank moves with every mark and the position's last published rank goes stale
 * @returns the Position
 */
export function positionView(state: SimState, position: SimPosition, equity: Dec, adlRank: number): Position {
  const { mark, notional: value, unrealizedPnl: pnl } = valuationOf(state, position);
  return {
    positionId: `${position.sym}|${position.positionSide}`,
    portfolioId: state.opts.portfolioId,
    sym: position.sym,
    positionSide: position.positionSide,
    positionQty: position.qty,
    avgPrice: position.avgPrice,
    markPrice: mark,
    positionValue: value,
    positionMargin: value.div(position.leverage),
    positionMM: value.mul(state.opts.mmrOf(position.sym)),
    unrealizedPNL: pnl,
    leverage: position.leverage,
    liqPrice: liqPriceOf(state, position, equity),
    adlRank,
    createAt: position.createAt,
    updateAt: position.updateAt,
  };
}

/**
 * The Accounts-channel view of the portfolio.
 * @param state - the venue
 * @param equity - the portfolio equity when the caller has it already (same state)
 * @param im - the initial margin when the caller has it already (same state)
 * @returns the Account
 */
export function accountView(state: SimState, equity: Dec = equityOf(state), im?: Dec): Account {
  const mm = maintenanceMargin(state);
  const riskRatio = equity.gt(0) ? mm.div(equity) : mm.isZero() ? ZERO : UNBOUNDED_RISK_RATIO;
  let accountStatus: AccountStatus = 'NORMAL';
  if (state.liquidating) accountStatus = 'LIQUIDATION';
  else if (riskRatio.gte(state.opts.marginCallRatio)) accountStatus = 'MARGIN_CALL';
  return {
    portfolioId: state.opts.portfolioId,
    equity,
    availableMargin: equity.minus(im ?? initialMargin(state)),
    maintainMargin: mm,
    riskRatio,
    accountStatus,
    positionMode: state.positionMode,
  };
}

/**
 * The Assets-channel view of one coin; loan fields only when a loan of it is outstanding.
 * @param state - the venue
 * @param coin - the coin
 * @param im - the initial margin when the caller has it already (same state)
 * @returns the Asset
 */
export function assetView(state: SimState, coin: string, im?: Dec): Asset {
  const balance = state.balances.get(coin) ?? ZERO;
  let upnl = ZERO;
  for (const position of state.positions.values()) {
    if (!position.qty.isZero() && state.opts.instruments.get(position.sym)?.settleAsset === coin) {
      upnl = upnl.plus(unrealizedPnl(state, position));
    }
  }
  let loan = ZERO;
  for (const record of state.loans.values()) if (record.coin === coin) loan = loan.plus(record.principal);
  const frozen = state.opts.valuationCoins.has(coin)
    ? D.min(D.max(im ?? initialMargin(state), ZERO), D.max(balance, ZERO))
    : ZERO;
  const equity = balance.plus(upnl);
  const asset: Asset = {
    coin,
    balance,
    available: balance.minus(frozen),
    frozen,
    equity,
    borrow: loan,
    upnl,
  };
  if (!loan.gt(0)) return asset;
  const value = coinValue(state, coin);
  const netEquity = equity.minus(loan);
  return {
    ...asset,
    loan,
    loanValue: loan.mul(value),
    netEquity,
    netEquityValue: netEquity.mul(value),
    netMarginValue: netEquity.mul(value),
  };
}
