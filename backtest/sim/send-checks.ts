import { marginRefusal, marginUnpriced, refusalDetail } from './margin-check.ts';
import { isUnsizedQuoteOrder } from './quote-sizing.ts';
import { trimToReducible } from './reduce-only-trim.ts';
import type { SimErrorName } from './sim-errors.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';

/** Why the venue refuses to send an order to the market: the error and what exactly was wrong. */
export interface SendRefusal {
  readonly name: SimErrorName;
  readonly detail: string;
}

/**
 * Refuses every order while the portfolio is being liquidated.
 * @param state - the venue
 * @returns the refusal, undefined outside a liquidation
 */
export function liquidationRefusal(state: SimState): SendRefusal | undefined {
  return state.liquidating
    ? { name: 'INSUFFICIENT_MARGIN', detail: 'the portfolio is being liquidated' }
    : undefined;
}

/**
 * The margin check of an order (`marginRefusal`) as a refusal.
 * @param state - the venue
 * @param order - a registered order
 * @returns the 401023 refusal with what it needed and what was available, undefined when it fits
 */
export function marginCheckRefusal(state: SimState, order: SimOrder): SendRefusal | undefined {
  const refusal = marginRefusal(state, order);
  return refusal === undefined ? undefined : { name: 'INSUFFICIENT_MARGIN', detail: refusalDetail(refusal) };
}

/**
 * Refuses (401097) an order that only reduces when its position has nothing it reduces, and trims
 * one larger than the position to it (saying so in actionMsg, after what it says already).
 * @param state - the venue
 * @param order - a registered order about to work; its qty may be cut
 * @returns the 401097 refusal, undefined when it reduces something or does not only reduce
 */
export function reduceOnlyRefusal(state: SimState, order: SimOrder): SendRefusal | undefined {
  const reducible = trimToReducible(state, order);
  return reducible?.isZero() === true
    ? { name: 'POSITION_QTY_ZERO', detail: `nothing to reduce on ${order.sym}` }
    : undefined;
}

/**
 * The checks an order meets when it is sent to the market: a new order on arrival, a conditional
 * one when its condition releases it (spec conditionCode: "When omitted or empty the order is sent
 * immediately", so a held order is sent when released). In order: no order while the portfolio is
 * being liquidated (401023); an order that only reduces needs a position to reduce (401097) and is
 * trimmed to it; the margin check (401023). An order that passes, placed before its sym had a price,
 * a market order on bars or a quote-sized order not sized yet, has its margin checked again at the
 * price it fills at (`marginAtFill`). Its parameters (lot, tick, sizes, expiry) are its own: order entry checked them
 * when it arrived.
 * @param state - the venue
 * @param order - a registered order about to work
 * @returns why it is refused, undefined when it may work
 */
export function sendRefusal(state: SimState, order: SimOrder): SendRefusal | undefined {
  const refusal =
    liquidationRefusal(state) ?? reduceOnlyRefusal(state, order) ?? marginCheckRefusal(state, order);
  if (refusal !== undefined) return refusal;
  order.marginAtFill =
    marginUnpriced(state, order) ||
    isUnsizedQuoteOrder(order) ||
    (state.opts.fillModel.name === 'bar' && order.orderType === 'MARKET' && !order.reduceOnly);
  return undefined;
}
