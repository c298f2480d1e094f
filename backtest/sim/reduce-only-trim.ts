import type { Dec } from '../../core/model/index.ts';
import { asNumber, isAboveZero, ZERO } from '../../core/model/index.ts';
import { finishOrder, positionFor } from './fills.ts';
import { onlyReduces, positionKeyFor } from './margin.ts';
import { isLive } from './order-factory.ts';
import { publishOrder } from './publish.ts';
import { remainderOf, type SimOrder } from './sim-order.ts';
import { reducibleQty, type SimPosition } from './sim-position.ts';
import type { SimState } from './sim-state.ts';

/** Cuts an order's remainder to `left` (qty = filled + left), saying so in actionMsg after what it says already. */
function cutRemainderTo(order: SimOrder, left: Dec, what: string): void {
  order.qty = order.filled.plus(left);
  order.remainingN = asNumber(left);
  order.actionMsg = order.actionMsg === undefined ? what : `${order.actionMsg}; ${what}`;
}

/**
 * Caps an order that only reduces (reduce-only, or in BOTH mode a leg's closing order) at what its
 * position has to reduce (what is left of it after its fills, when amended), saying so in actionMsg
 * after what it says already: when it is sent, and
 * for a quote-sized order sized later (on bars, or waiting for a price), when it is sized. The
 * other reduce-only orders on the leg do not count here, as on the venue: together they are capped
 * when the position shrinks ({@link capReduceOnlyOrders}).
 * @param state - the venue
 * @param order - the order; its qty may be cut
 * @returns the qty its position has to reduce (zero: nothing), undefined when the order does not
 *   only reduce
 */
export function trimToReducible(state: SimState, order: SimOrder): Dec | undefined {
  if (!onlyReduces(state, order)) return undefined;
  const reducible = reducibleQty(positionFor(state, order).qty, order.side);
  if (!reducible.isZero() && remainderOf(order).gt(reducible))
    cutRemainderTo(order, reducible, `reduce-only qty trimmed to the position size ${reducible.toFixed()}`);
  return reducible;
}

/**
 * Trims a modified order that only reduces to its position as a new order is trimmed
 * ({@link trimToReducible}): what is left of it after its fills is at most what the position has
 * to reduce. A held (conditional) order is left as modified: it meets the check when it is released.
 * @param state - the venue
 * @param order - the order with its amended qty; its qty may be cut
 */
export function trimAmendedToReducible(state: SimState, order: SimOrder): void {
  if (order.working && !order.qty.isZero()) trimToReducible(state, order);
}

/**
 * The working orders that only reduce the given leg, oldest first: the ones its cap counts. A US
 * equity's orders are never reduce-only, a liquidation's are the venue's own, and a quote-sized
 * order not sized yet (qty 0) has no qty to cap (it is trimmed when sized).
 */
function reducingOrdersOn(state: SimState, position: SimPosition): SimOrder[] {
  if (position.sym.startsWith('US_EQUITY_')) return [];
  const key = positionKeyFor(state, position.sym, position.positionSide);
  const orders: SimOrder[] = [];
  for (const order of state.liveOrders) {
    if (order.sym !== position.sym || !order.working || order.liquidation || !isLive(order)) continue;
    if (order.qty.isZero() || !onlyReduces(state, order)) continue;
    if (positionKeyFor(state, order.sym, order.positionSide) === key) orders.push(order);
  }
  return orders.sort((a, b) => a.seq - b.seq);
}

/**
 * Caps the open reduce-only orders of a position leg that shrank, went flat or turned: together
 * they never exceed what is left to reduce. The oldest keep their remainder; the most recently
 * placed are trimmed first (AMEND_COMPLETED, amendType QTY, "reduce-only qty trimmed ..." in
 * actionMsg) and cancelled (CANCEL_COMPLETED, cancelType REDUCE_ONLY) when nothing is left for
 * them, so none outlives its position to trade a later one.
 * @param state - the venue
 * @param position - the leg whose qty fell (a margin position or a spot holding)
 */
export function capReduceOnlyOrders(state: SimState, position: SimPosition): void {
  // A long is reduced by SELLs, a short by BUYs; an order on the other side has nothing to reduce.
  const reducing = position.qty.isNegative() ? 'BUY' : 'SELL';
  const size = position.qty.abs();
  let left = size;
  for (const order of reducingOrdersOn(state, position)) {
    if (order.side !== reducing || !isAboveZero(left)) {
      finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', 'REDUCE_ONLY');
      continue;
    }
    const remainder = remainderOf(order);
    if (remainder.gt(left)) {
      const what = left.eq(size)
        ? `reduce-only qty trimmed to the position size ${size.toFixed()}`
        : `reduce-only qty trimmed to ${order.filled.plus(left).toFixed()}: the position has ${size.toFixed()} ` +
          `left to reduce, older reduce-only orders hold ${size.minus(left).toFixed()}`;
      cutRemainderTo(order, left, what);
      order.amendType = 'QTY';
      publishOrder(state, order, 'AMEND_COMPLETED');
      left = ZERO;
    } else {
      left = left.minus(remainder);
    }
  }
}
