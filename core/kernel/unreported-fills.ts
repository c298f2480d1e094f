import { type Dec, type Execution, ZERO } from '../model/index.ts';

/** A fill's signed quantity (BUY > 0, SELL < 0) and its venue time. */
interface UnreportedFill {
  readonly ts: number;
  readonly qty: Dec;
}

/**
 * The fills of each position leg the venue has not reported in a position update yet, so a
 * strategy's `netQty` includes a fill from the moment it is booked: a venue pushes the execution
 * and the order update before the position update that includes them (NautilusTrader likewise
 * updates the position before `on_order_filled`). A position update replaces every fill booked
 * before it; a fill booked after one is counted only when it is later than the update's
 * `updateAt` (venue time), so a venue that reports the position first does not count it twice.
 */
export class UnreportedFills {
  readonly #byLeg = new Map<string, UnreportedFill[]>();
  /** Venue time of each leg's latest position update. */
  readonly #reportedAt = new Map<string, number>();

  /**
   * Books a fill on its leg unless the leg's latest position update already includes it.
   * @param key - the fill's leg's positions key (`positionKey` of its sym and position side)
   * @param execution - the fill, booked once
   */
  add(key: string, execution: Execution): void {
    if (execution.timestamp <= (this.#reportedAt.get(key) ?? Number.NEGATIVE_INFINITY)) return;
    const qty = execution.side === 'BUY' ? execution.quantity : execution.quantity.neg();
    const list = this.#byLeg.get(key);
    if (list === undefined) this.#byLeg.set(key, [{ ts: execution.timestamp, qty }]);
    else list.push({ ts: execution.timestamp, qty });
  }

  /**
   * The venue reported a leg: the fills booked so far are in it.
   * @param key - the leg's positions key (`positionKey`)
   * @param updateAt - the update's venue time, epoch ms
   */
  reported(key: string, updateAt: number): void {
    this.#byLeg.delete(key);
    if (updateAt > (this.#reportedAt.get(key) ?? Number.NEGATIVE_INFINITY))
      this.#reportedAt.set(key, updateAt);
  }

  /**
   * @param key - a leg's positions key
   * @returns the signed quantity of its fills not in a position update yet; ZERO when none
   */
  qty(key: string): Dec {
    const list = this.#byLeg.get(key);
    if (list === undefined) return ZERO;
    let total = ZERO;
    for (const fill of list) total = total.add(fill.qty);
    return total;
  }
}
