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
 * updates the position before `on_order_filled`). A position update includes the fills up to its
 * `updateAt` (venue time): it replaces those booked before it and a fill booked after it only
 * when that fill is later, so a venue that reports the position first does not count it twice.
 * An update older than the leg's latest one (pushes delivered out of order) changes nothing: the
 * leg's quantity is always its latest update plus the fills after it.
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
   * The venue reported a leg: unless an update of it later than this one came already, the fills
   * booked up to the update's time are in it, and those after it are not.
   * @param key - the leg's positions key (`positionKey`)
   * @param updateAt - the update's venue time, epoch ms
   * @returns false when the leg's latest update is later (this one is stale and changed nothing)
   */
  reported(key: string, updateAt: number): boolean {
    if (updateAt < (this.#reportedAt.get(key) ?? Number.NEGATIVE_INFINITY)) return false;
    this.#reportedAt.set(key, updateAt);
    const list = this.#byLeg.get(key);
    if (list === undefined) return true;
    const after = list.filter((fill) => fill.ts > updateAt);
    if (after.length === 0) this.#byLeg.delete(key);
    else this.#byLeg.set(key, after);
    return true;
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
