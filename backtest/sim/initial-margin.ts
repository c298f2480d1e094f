import type { Dec } from '../../core/model/index.ts';
import { decimalOf, isAboveZero, ZERO } from '../../core/model/index.ts';
import { timesSize } from './contract-size.ts';
import { atLeastZero, smallerOf } from './decimal-compare.ts';
import { addTo } from './decimal-sums.ts';
import {
  contractSizeOf,
  equityOf,
  marginOfValuation,
  onlyReduces,
  positionKeyFor,
  settleValue,
  valuationOf,
  valued,
} from './margin.ts';
import { markPriceOf } from './market-state.ts';
import { hasRemainder, remainderOf, type SimOrder } from './sim-order.ts';
import { type PositionValuation, reducibleQty } from './sim-position.ts';
import type { SimState } from './sim-state.ts';
import { spotReservation } from './spot-balance-check.ts';
import { isAssetSettledSym } from './spot-holdings.ts';

/*
 * Initial margin (see the margin model in `margin.ts`): what positions and open orders lock, what
 * one order adds to it, and the available margin left.
 */

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

/** Limit price, or the mark for a market order as a number (NaN while its sym has no price). */
function orderPriceNumberOf(state: SimState, order: SimOrder): number {
  if (!order.price.isZero()) return Number.NaN;
  const market = state.markets.get(order.sym);
  return market ? markPriceOf(market) : Number.NaN;
}

/** An open position's margin inputs: its valuation at the mark now and its leverage. */
interface PositionMargin {
  readonly valuation: PositionValuation;
  readonly leverage: Dec;
}

/**
 * What the commitment of one position and side's open orders ({@link sideCommitment}) is worked
 * out from, read off the venue's state: immutable Decimals and numbers, so the arithmetic may
 * come later.
 */
interface SideInputs {
  /** What the position holds on the other side (0 without one). */
  readonly closable: Dec;
  /** The position's margin inputs when it holds some on the other side. */
  readonly position: PositionMargin | undefined;
  readonly size: Dec;
  readonly leverage: Dec;
  /** Each order in placement order: its qty, its filled qty and its limit price (0: a market order). */
  readonly orders: readonly (readonly [qty: Dec, filled: Dec, price: Dec])[];
  /** Each order's mark as a number (NaN: none or a limit order), in the same order. */
  readonly marks: readonly number[];
}

/** The inputs of {@link sideCommitment} in the venue's state now; undefined without orders. */
function sideInputsOf(state: SimState, orders: readonly SimOrder[]): SideInputs | undefined {
  const first = orders[0];
  if (first === undefined) return undefined;
  const position = state.positions.get(positionKeyFor(state, first.sym, first.positionSide));
  const closable = position ? reducibleQty(position.qty, first.side) : ZERO;
  return {
    closable,
    position:
      position && isAboveZero(closable)
        ? { valuation: valuationOf(state, position), leverage: position.leverage }
        : undefined,
    size: contractSizeOf(state, first.sym),
    leverage: state.opts.leverageOf(first.sym),
    orders: orders.map((order) => [order.qty, order.filled, order.price] as const),
    marks: orders.map((order) => orderPriceNumberOf(state, order)),
  };
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
  return commitmentOf(sideInputsOf(state, orders), target === undefined ? -1 : orders.indexOf(target));
}

/** {@link sideCommitment} of its inputs, the target given by its place among the orders (-1: none). */
function commitmentOf(inputs: SideInputs | undefined, target: number): OrderCommitment {
  if (inputs === undefined) return NO_COMMITMENT;
  const { closable, size } = inputs;
  let left = closable;
  let openingValue = ZERO;
  let targetOpening = ZERO;
  for (let i = 0; i < inputs.orders.length; i++) {
    const [qty, filled, limit] = inputs.orders[i] as readonly [Dec, Dec, Dec];
    const remaining = remainderOf({ qty, filled });
    const closing = smallerOf(left, remaining);
    let opening = remaining;
    if (!closing.isZero()) {
      left = left.minus(closing);
      opening = remaining.minus(closing);
    }
    if (!isAboveZero(opening)) continue;
    const mark = inputs.marks[i] as number;
    const price = !limit.isZero() ? limit : Number.isNaN(mark) ? ZERO : decimalOf(mark);
    const value = timesSize(opening, size).mul(price);
    openingValue = addTo(openingValue, value);
    if (i === target) targetOpening = value;
  }
  let margin = openingValue.div(inputs.leverage);
  const position = inputs.position;
  if (position !== undefined && isAboveZero(closable))
    margin = atLeastZero(margin.minus(marginOfValuation(position.valuation, position.leverage)));
  return { margin, openingNotional: targetOpening };
}

/**
 * Groups the live orders that may open a position by position key and side, in placement order.
 * Spot orders open none: they freeze assets instead (`spot-balance-check.ts`).
 */
function openingOrdersBySide(state: SimState): Map<string, SimOrder[]> {
  const groups = new Map<string, SimOrder[]>();
  for (const order of state.liveOrders) {
    if (onlyReduces(state, order) || !hasRemainder(order) || isAssetSettledSym(state, order.sym)) continue;
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
  if (onlyReduces(state, order) || !hasRemainder(order)) return NO_COMMITMENT;
  const key = positionKeyFor(state, order.sym, order.positionSide);
  const others: SimOrder[] = [];
  for (const other of state.liveOrders) {
    if (other.orderId === order.orderId || other.side !== order.side || other.sym !== order.sym) continue;
    if (positionKeyFor(state, other.sym, other.positionSide) !== key) continue;
    if (!onlyReduces(state, other) && hasRemainder(other)) others.push(other);
  }
  const at = others.findIndex((other) => other.seq > order.seq);
  const withOrder = at < 0 ? [...others, order] : [...others.slice(0, at), order, ...others.slice(at)];
  const { margin, openingNotional } = sideCommitment(state, withOrder, order);
  const added = margin.minus(sideCommitment(state, others).margin);
  return { margin: valued(atLeastZero(added), settleValue(state, order.sym)), openingNotional };
}

/**
 * Initial margin an order would lock: the increase of its position's margin requirement with it
 * (`orderCommitment`); for a spot order what it freezes of the coin it pays with
 * (`spotReservation`), as spot orders lock no margin.
 * @param state - the venue
 * @param order - the order
 * @returns the margin in the account currency, or a spot order's frozen amount in its coin
 */
export function orderMargin(state: SimState, order: SimOrder): Dec {
  if (isAssetSettledSym(state, order.sym)) return spotReservation(state, order);
  return orderCommitment(state, order).margin;
}

/**
 * Initial margin locked by positions and open orders (orders per position and side, as
 * `sideCommitment` counts them).
 * @param state - the venue
 * @returns the margin in the account currency
 */
export function initialMargin(state: SimState): Dec {
  return initialMarginLater(state).value;
}

/**
 * The initial margin of the venue's state now ({@link initialMargin}), read off the state now and
 * worked out when first asked for, once: a fill's asset and account views carry it, and a
 * backtest seldom reads it.
 * @param state - the venue
 * @returns the margin to come
 */
export function initialMarginLater(state: SimState): DeferredMargin {
  const positions: (readonly [PositionMargin, settle: Dec])[] = [];
  for (const position of state.positions.values()) {
    if (!position.qty.isZero())
      positions.push([
        { valuation: valuationOf(state, position), leverage: position.leverage },
        settleValue(state, position.sym),
      ]);
  }
  const sides: (readonly [SideInputs | undefined, settle: Dec])[] = [];
  // No order left (as after most fills): no grouping either.
  if (state.liveOrders.size > 0) {
    for (const orders of openingOrdersBySide(state).values()) {
      const sym = (orders[0] as SimOrder).sym;
      sides.push([sideInputsOf(state, orders), settleValue(state, sym)]);
    }
  }
  return new DeferredMargin(positions, sides);
}

/** An initial margin read off the venue's state, worked out when first asked for ({@link initialMarginLater}). */
export class DeferredMargin {
  #value: Dec | undefined;

  /**
   * @param positions - each open position's margin inputs and settle value
   * @param sides - each position and side's open orders' inputs and settle value
   */
  constructor(
    private readonly positions: readonly (readonly [PositionMargin, Dec])[],
    private readonly sides: readonly (readonly [SideInputs | undefined, Dec])[],
  ) {}

  /** The margin in the account currency. */
  get value(): Dec {
    if (this.#value !== undefined) return this.#value;
    let im = ZERO;
    for (const [{ valuation, leverage }, settle] of this.positions)
      im = addTo(im, valued(marginOfValuation(valuation, leverage), settle));
    for (const [inputs, settle] of this.sides)
      im = addTo(im, valued(commitmentOf(inputs, -1).margin, settle));
    this.#value = im;
    return im;
  }
}

/**
 * Available margin: equity minus the initial margin of positions and open orders.
 * @param state - the venue
 * @returns the margin in the account currency (negative when over-committed)
 */
export function availableMargin(state: SimState): Dec {
  return equityOf(state).minus(initialMargin(state));
}
