import type { Dec } from '../../core/model/index.ts';
import { asNumber } from '../../core/model/index.ts';
import { positionFor } from './fills.ts';
import { onlyReduces } from './margin.ts';
import type { SimOrder } from './sim-order.ts';
import { reducibleQty } from './sim-position.ts';
import type { SimState } from './sim-state.ts';

/**
 * Caps an order that only reduces (reduce-only, or in BOTH mode a leg's closing order) at what its
 * position has to reduce, saying so in actionMsg after what it says already: when it is sent, and
 * for a quote-sized order sized later (on bars, or waiting for a price), when it is sized.
 * @param state - the venue
 * @param order - the order; its qty may be cut
 * @returns the qty its position has to reduce (zero: nothing), undefined when the order does not
 *   only reduce
 */
export function trimToReducible(state: SimState, order: SimOrder): Dec | undefined {
  if (!onlyReduces(state, order)) return undefined;
  const reducible = reducibleQty(positionFor(state, order).qty, order.side);
  if (!reducible.isZero() && order.qty.gt(reducible)) {
    order.qty = reducible;
    order.remainingN = asNumber(reducible);
    const trimmed = `reduce-only qty trimmed to the position size ${reducible.toFixed()}`;
    order.actionMsg = order.actionMsg === undefined ? trimmed : `${order.actionMsg}; ${trimmed}`;
  }
  return reducible;
}
