import type { Dec, Order, OrderSide, PositionSide } from '../model/index.ts';
import { asNumber, D, decimalOfComputed, onlyReducesPosition, ZERO } from '../model/index.ts';
import { type AddingAlgoOrder, forEachAddingAlgoOrder } from './adding-algo-orders.ts';
import {
  claimedLimitPrice,
  claimedOrderQty,
  isUnsizedQuoteOrder,
  mayCarryModifyClaim,
  type OrderTerms,
} from './order-terms.ts';
import type { RiskView } from './risk-view.ts';

const ONE = D(1);

/** Relative room left for float rounding when the estimate below decides alone. */
const ESTIMATE_MARGIN = 1e-9;

/**
 * Whether an open order counts toward the exposure the order being decided may reach: it can add
 * to a position (not reduce-only) and is not the order a modification replaces.
 */
function counts(order: Order, terms: OrderTerms): boolean {
  return order.clientOrderId !== terms.replaces && !onlyReducesPosition(order);
}

/**
 * The notional an open order can still add: its quote amount not spent yet (a quote-sized order
 * not sized yet), else what it can still fill ({@link claimedOrderQty}, a modify in flight at its
 * larger qty) * contractSize * its limit price ({@link claimedLimitPrice}, a modify in flight at
 * its higher price), a market order at the reference price. An order
 * on a sym the run has no spec of (placed outside the run: the gate lets none through) counts
 * with contractSize 1.
 * @returns the notional, or undefined for a market order with no reference price
 */
function openOrderNotional(order: Order, view: RiskView): Dec | undefined {
  if (isUnsizedQuoteOrder(order)) {
    const unspent = (order.quoteOrderQty as Dec).sub(order.executedAmount);
    return unspent.gt(0) ? unspent : ZERO;
  }
  const left = claimedOrderQty(order, view).sub(order.executedQty);
  if (!left.gt(0)) return ZERO;
  const contracts = left.mul(view.instrument(order.sym)?.contractSize ?? ONE);
  if (order.orderType === 'LIMIT' && !order.limitPrice.isZero())
    return contracts.mul(claimedLimitPrice(order, view));
  const reference = view.referencePrice(order.sym);
  return reference === undefined ? undefined : contracts.mul(decimalOfComputed(reference));
}

/**
 * The notional an algo order not triggered yet can add if it fires: its qty * contractSize * its
 * limit price, a market one at the reference price (contractSize 1 on a sym the run has no spec of).
 * @returns the notional, or undefined for a market one with no reference price
 */
function algoNotional(algo: AddingAlgoOrder, view: RiskView): Dec | undefined {
  const contracts = algo.qty.mul(view.instrument(algo.sym)?.contractSize ?? ONE);
  if (!algo.price.isZero()) return contracts.mul(algo.price);
  const reference = view.referencePrice(algo.sym);
  return reference === undefined ? undefined : contracts.mul(decimalOfComputed(reference));
}

/**
 * {@link openOrderNotional} on numbers; NaN when it is undefined.
 * @param contractSize - the contract size of the order's sym (1 when the run has no spec of it)
 */
function openOrderNotionalEstimate(order: Order, contractSize: number, view: RiskView): number {
  if (isUnsizedQuoteOrder(order) || mayCarryModifyClaim(order)) {
    const exact = openOrderNotional(order, view);
    return exact === undefined ? Number.NaN : asNumber(exact);
  }
  const left = asNumber(order.orderQty) - (order.executedQty.isZero() ? 0 : asNumber(order.executedQty));
  if (!(left > 0)) return 0;
  const price =
    order.orderType === 'LIMIT' && !order.limitPrice.isZero()
      ? asNumber(order.limitPrice)
      : view.referencePrice(order.sym);
  return price === undefined ? Number.NaN : left * contractSize * price;
}

/** Where a side of a position leg sits in {@link SymSides}: BUY then SELL per leg. */
const LEG_SLOT: Readonly<Record<PositionSide, number>> = { NONE: 0, LONG: 2, SHORT: 4 };

/**
 * What the open orders of one sym can add, on numbers: the buys' and the sells' notional of each
 * of its legs (NONE, LONG, SHORT), BUY at the leg's slot and SELL after it; and the sym's contract
 * size, read once.
 */
interface SymSides {
  readonly contractSize: number;
  readonly sums: [number, number, number, number, number, number];
}

function sidesOf(sides: Map<string, SymSides>, sym: string, view: RiskView): SymSides {
  let entry = sides.get(sym);
  if (entry === undefined) {
    const spec = view.instrument(sym);
    entry = { contractSize: spec === undefined ? 1 : asNumber(spec.contractSize), sums: [0, 0, 0, 0, 0, 0] };
    sides.set(sym, entry);
  }
  return entry;
}

function addSide(entry: SymSides, positionSide: PositionSide, side: OrderSide, amount: number): void {
  const slot = LEG_SLOT[positionSide] + (side === 'BUY' ? 0 : 1);
  entry.sums[slot] = (entry.sums[slot] as number) + amount;
}

/**
 * Gross exposure after the order, on numbers and over-estimated: the current gross exposure plus,
 * for each position leg, the larger of the notional its buys and its sells can add (the order's
 * among them, every open order and algo order not triggered yet that can add to a position
 * counted). The exact {@link exposureAfter}
 * takes a leg of value v to max(|v + B|, |v - S|), never more than |v| + max(B, S): so this bounds
 * it. True when that stays under the limit by more than float rounding could account for, so the
 * exact Decimal walk is needed only near the limit (a market maker quoting both sides no longer
 * counts both).
 * @param current - the gross exposure now
 * @param notional - the order's notional (what it can still add)
 * @param terms - the order
 * @param view - the state
 * @param owner - count only this strategy's open orders; undefined = every strategy's
 * @param max - the limit
 * @returns true when the exposure surely stays within the limit
 */
export function clearlyWithinExposure(
  current: Dec,
  notional: Dec,
  terms: OrderTerms,
  view: RiskView,
  owner: string | undefined,
  max: Dec,
): boolean {
  const now = asNumber(current);
  // One entry per sym with counted orders (a few), not one per order.
  const sides = new Map<string, SymSides>();
  addSide(sidesOf(sides, terms.sym, view), terms.positionSide, terms.side, asNumber(notional));
  view.forEachOpenOrder(owner, (order) => {
    if (!counts(order, terms)) return;
    const entry = sidesOf(sides, order.sym, view);
    addSide(
      entry,
      order.positionSide,
      order.side,
      openOrderNotionalEstimate(order, entry.contractSize, view),
    );
  });
  // Algo orders are few: their exact notional costs little.
  forEachAddingAlgoOrder(view, owner, terms.replacesAlgo, (algo) => {
    const amount = algoNotional(algo, view);
    addSide(
      sidesOf(sides, algo.sym, view),
      algo.positionSide,
      algo.side,
      amount === undefined ? Number.NaN : asNumber(amount),
    );
  });
  let added = 0;
  // Every term is non-negative (NaN when a notional is not known, which Math.max keeps): their
  // sum is also the scale of its rounding.
  for (const { sums } of sides.values())
    added += Math.max(sums[0], sums[1]) + Math.max(sums[2], sums[3]) + Math.max(sums[4], sums[5]);
  const limit = asNumber(max);
  // NaN (a notional not known) compares false: the exact walk decides.
  return now + added < limit - (Math.abs(now) + added + limit) * ESTIMATE_MARGIN;
}

/** The notional the counted orders of one position leg can add, by side. */
interface LegOrders {
  readonly sym: string;
  readonly positionSide: PositionSide;
  buy: Dec;
  sell: Dec;
}

/**
 * Gross exposure after the order, if the open orders that can add to a position fill as far as
 * they can make it worst, and the algo orders not triggered yet that can add to one fire (each as
 * the order it sends, see `forEachAddingAlgoOrder`): for each position leg with such orders (the order's among them), its
 * value at the reference price v, and the notional of its buys B and sells S, the leg reaches
 * max(|v + B|, |v - S|) instead of |v|. The order counts with its notional; a modification in
 * place of the order it modifies; an open order with a modify in flight at the larger qty.
 * @param current - the gross exposure now (every leg at |v|)
 * @param notional - the order's notional (what it can still add)
 * @param terms - the order
 * @param view - the state
 * @param owner - count only this strategy's open orders; undefined = every strategy's
 * @returns the exposure, or undefined when an open order's notional is not known (a market
 *   order or market algo order with no reference price)
 */
export function exposureAfter(
  current: Dec,
  notional: Dec,
  terms: OrderTerms,
  view: RiskView,
  owner: string | undefined,
): Dec | undefined {
  const legs = new Map<string, LegOrders>();
  const add = (sym: string, positionSide: PositionSide, side: OrderSide, amount: Dec): void => {
    const key = `${sym}|${positionSide}`;
    let leg = legs.get(key);
    if (leg === undefined) {
      leg = { sym, positionSide, buy: ZERO, sell: ZERO };
      legs.set(key, leg);
    }
    if (side === 'BUY') leg.buy = leg.buy.add(amount);
    else leg.sell = leg.sell.add(amount);
  };
  add(terms.sym, terms.positionSide, terms.side, notional);
  let known = true;
  view.forEachOpenOrder(owner, (order) => {
    if (!known || !counts(order, terms)) return;
    const amount = openOrderNotional(order, view);
    if (amount === undefined) known = false;
    else add(order.sym, order.positionSide, order.side, amount);
  });
  forEachAddingAlgoOrder(view, owner, terms.replacesAlgo, (algo) => {
    if (!known) return;
    const amount = algoNotional(algo, view);
    if (amount === undefined) known = false;
    else add(algo.sym, algo.positionSide, algo.side, amount);
  });
  if (!known) return undefined;
  let after = current;
  for (const leg of legs.values()) {
    const value = legValue(leg, view);
    const up = value.add(leg.buy).abs();
    const down = value.sub(leg.sell).abs();
    after = after.add((up.gt(down) ? up : down).sub(value.abs()));
  }
  return after;
}

/** A leg's signed value at the reference price; zero when flat or not valued (no price). */
function legValue(leg: LegOrders, view: RiskView): Dec {
  const spec = view.instrument(leg.sym);
  const reference = view.referencePrice(leg.sym);
  const qty = view.positionQty(leg.sym, leg.positionSide);
  if (spec === undefined || reference === undefined || qty.isZero()) return ZERO;
  return qty.mul(spec.contractSize).mul(decimalOfComputed(reference));
}
