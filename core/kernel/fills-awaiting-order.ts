import type { ExecutionEvent } from '../model/index.ts';
import { AWAITING_ALGO_CHILDREN_KEPT } from './algo-children-awaiting.ts';
import { HeldGroups } from './held-groups.ts';

/**
 * The fills that arrived before their order's first update, owned by no strategy yet, by the
 * orderId they name, until that update arrives and says whose they are. The venue's Trades and
 * Orders channels are not ordered with each other, so a fill of an order Keel did not place (the
 * order a stop sent, a take-profit / stop-loss leg, one placed by hand) may come first; without
 * this it reached no strategy. The last {@link AWAITING_ALGO_CHILDREN_KEPT} are held, oldest
 * forgotten first (a fill of an order whose update never comes, e.g. one finished so long ago the
 * kernel forgot it).
 */
export class FillsAwaitingOrder {
  /** The held fills, by the orderId they name. */
  private readonly fills: HeldGroups<ExecutionEvent>;

  /** @param kept - how many fills are held at most */
  constructor(kept = AWAITING_ALGO_CHILDREN_KEPT) {
    this.fills = new HeldGroups(kept);
  }

  /**
   * Holds a fill until its order's first update.
   * @param event - a fill whose order the kernel has not seen
   */
  hold(event: ExecutionEvent): void {
    this.fills.add(event.execution.orderId, event);
  }

  /**
   * Ends the wait of the fills of an order just updated.
   * @param orderId - the order's venue id
   * @returns its held fills in arrival order (empty when none waited)
   */
  take(orderId: string): readonly ExecutionEvent[] {
    return this.fills.take(orderId);
  }
}
