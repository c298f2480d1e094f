import type { ExecutionEvent } from '../model/index.ts';
import { AWAITING_ALGO_CHILDREN_KEPT } from './algo-children-awaiting.ts';

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
  /** The held fills, by the orderId they name, in arrival order. */
  private readonly byOrder = new Map<string, ExecutionEvent[]>();
  /** The orderId of each held fill, oldest first. */
  private readonly arrivals: string[] = [];

  /** @param kept - how many fills are held at most */
  constructor(private readonly kept = AWAITING_ALGO_CHILDREN_KEPT) {}

  /**
   * Holds a fill until its order's first update.
   * @param event - a fill whose order the kernel has not seen
   */
  hold(event: ExecutionEvent): void {
    const { orderId } = event.execution;
    const fills = this.byOrder.get(orderId);
    if (fills === undefined) this.byOrder.set(orderId, [event]);
    else fills.push(event);
    this.arrivals.push(orderId);
    if (this.arrivals.length > this.kept) this.forgetOldest();
  }

  /**
   * Ends the wait of the fills of an order just updated.
   * @param orderId - the order's venue id
   * @returns its held fills in arrival order (empty when none waited)
   */
  take(orderId: string): readonly ExecutionEvent[] {
    if (this.byOrder.size === 0) return [];
    const fills = this.byOrder.get(orderId);
    if (fills === undefined) return [];
    this.byOrder.delete(orderId);
    for (let left = fills.length, i = 0; left > 0 && i < this.arrivals.length; ) {
      if (this.arrivals[i] === orderId) {
        this.arrivals.splice(i, 1);
        left--;
      } else i++;
    }
    return fills;
  }

  private forgetOldest(): void {
    const orderId = this.arrivals.shift();
    if (orderId === undefined) return;
    const fills = this.byOrder.get(orderId);
    fills?.shift();
    if (fills?.length === 0) this.byOrder.delete(orderId);
  }
}
