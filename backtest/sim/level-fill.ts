import type { Dec } from '../../core/model/index.ts';
import { D, decimalForStep, decimalOf, floorToStep } from '../../core/model/index.ts';
import { offeredAt, priceDecimalOf, type SymMarket, type TakenLevel } from './market-state.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';

/*
 * How much an order can fill at one price level, for arriving and resting orders alike: whether
 * its limit reaches the level, what the level still offers, and that size as a lot-sized quantity.
 */

/**
 * A hot-path quantity (possibly the result of float arithmetic: sizes minus queue, minus what other
 * orders took) as money: float noise removed (decimalForStep), floored to the lot size.
 * @param state - the venue
 * @param sym - the symbol (its lot size)
 * @param qty - the number
 * @returns the Decimal quantity, possibly zero
 */
export function lotQty(state: SimState, sym: string, qty: number): Dec {
  const lot = state.opts.instruments.get(sym)?.lotSize;
  return lot ? floorToStep(decimalForStep(qty, lot), lot) : decimalOf(qty);
}

/**
 * The size a level offers: what the sim has not taken of it yet, Infinity without partial fills.
 * @param partialFills - the fill model's partialFills
 * @param taken - what the sim took of the displayed levels on this side; undefined for the
 *   last-trade level, whose taken size the caller has counted already
 * @param price - the level's price
 * @param qty - the level's displayed or traded size
 * @returns the size on offer
 */
export function offered(
  partialFills: boolean,
  taken: readonly TakenLevel[] | undefined,
  price: number,
  qty: number,
): number {
  if (!partialFills) return Number.POSITIVE_INFINITY;
  return taken === undefined ? qty : offeredAt(taken, price, qty);
}

/**
 * Whether a taking order's limit reaches a price (a market order's always does).
 * @param order - the order
 * @param isMarket - whether it is a market order
 * @param price - the level's price
 * @returns true when the order may fill at that price
 */
export function crosses(order: SimOrder, isMarket: boolean, price: number): boolean {
  return isMarket || (order.sign > 0 ? price <= order.priceN : price >= order.priceN);
}

/**
 * The price an order takes a level at: the level's price, moved `ticks` ticks against the order
 * (a buy pays more, a sell gets less), as a market order's slippage and beyond-book ticks move it.
 * @param state - the venue (the sym's tick size)
 * @param market - the sym's market (the level price's exact Decimal when it is the mark)
 * @param order - the taking order (its sym and side)
 * @param price - the level's price
 * @param ticks - how many ticks to move it
 * @returns the fill price
 */
export function tickShift(
  state: SimState,
  market: SymMarket,
  order: Pick<SimOrder, 'sym' | 'sign'>,
  price: number,
  ticks: number,
): Dec {
  const base = priceDecimalOf(market, price);
  if (ticks === 0) return base;
  const tick = state.opts.instruments.get(order.sym)?.tickSize ?? D(0);
  return base.plus(tick.mul(ticks * order.sign));
}
