import type { SimOrder } from './sim-order.ts';

/**
 * The working orders of one sym, indexed by price: buys best (highest) first, sells best (lowest)
 * first, ties in arrival order. Matching looks only at the head of each side, so a market event
 * that cannot fill anything costs two number comparisons.
 */
export class RestingBook {
  /** Buy orders, highest price first. */
  readonly buys: SimOrder[] = [];
  /** Sell orders, lowest price first. */
  readonly sells: SimOrder[] = [];

  /**
   * Inserts a working limit order at its price-time position.
   * @param order - a working limit order
   */
  add(order: SimOrder): void {
    const buying = order.sign > 0;
    const side = buying ? this.buys : this.sells;
    // No comparator closure: every placement and every amendment adds an order.
    let lo = 0;
    let hi = side.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const price = (side[mid] as SimOrder).priceN;
      if (buying ? price >= order.priceN : price <= order.priceN) lo = mid + 1;
      else hi = mid;
    }
    // Shifted by hand: splice would allocate the (empty) array of removed items on every call.
    let at = side.length;
    side.push(order);
    for (; at > lo; at--) side[at] = side[at - 1] as SimOrder;
    side[lo] = order;
  }

  /**
   * Removes an order from the book (filled, cancelled, expired or amended).
   * @param order - the order
   * @returns true when it was on the book
   */
  remove(order: SimOrder): boolean {
    const side = order.sign > 0 ? this.buys : this.sells;
    const index = side.indexOf(order);
    if (index < 0) return false;
    for (let at = index + 1; at < side.length; at++) side[at - 1] = side[at] as SimOrder;
    side.pop();
    return true;
  }

  /** @returns how many orders rest on this sym */
  get size(): number {
    return this.buys.length + this.sells.length;
  }
}
