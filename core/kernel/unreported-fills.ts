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
 * `updateAt` (venue time) and replaces those booked before it. A fill booked after the update but
 * stamped no later than it (venue times are whole ms, so one order's pieces share a stamp) is in
 * the update only when the update moved the leg by more than the fills booked before it: that
 * remainder absorbs such fills (a venue that reports the position first does not count them
 * twice), and a fill it cannot absorb counts on top (the venue sent it after the update).
 * An update older than the leg's latest one (pushes delivered out of order) changes nothing: the
 * leg's quantity is always its latest update plus the fills after it.
 */
export class UnreportedFills {
  readonly #byLeg = new Map<string, UnreportedFill[]>();
  /** Venue time of each leg's latest position update. */
  readonly #reportedAt = new Map<string, number>();
  /**
   * Per leg, how far its latest update moved the leg beyond the fills booked by then (signed):
   * fills it includes that had not arrived yet.
   */
  readonly #ahead = new Map<string, Dec>();

  /**
   * Books a fill on its leg unless the leg's latest position update already includes it.
   * @param key - the fill's leg's positions key (`positionKey` of its sym and position side)
   * @param execution - the fill, booked once
   */
  add(key: string, execution: Execution): void {
    const qty = execution.side === 'BUY' ? execution.quantity : execution.quantity.neg();
    if (execution.timestamp <= (this.#reportedAt.get(key) ?? Number.NEGATIVE_INFINITY)) {
      const ahead = this.#ahead.get(key) ?? ZERO;
      if (!ahead.isZero() && qty.isNeg() === ahead.isNeg() && qty.abs().lte(ahead.abs())) {
        this.#ahead.set(key, ahead.sub(qty));
        return;
      }
    }
    const list = this.#byLeg.get(key);
    if (list === undefined) this.#byLeg.set(key, [{ ts: execution.timestamp, qty }]);
    else list.push({ ts: execution.timestamp, qty });
  }

  /**
   * The venue reported a leg: unless an update of it later than this one came already, the fills
   * booked up to the update's time are in it, and those after it are not.
   * @param key - the leg's positions key (`positionKey`)
   * @param updateAt - the update's venue time, epoch ms
   * @param moved - how far the update moves the leg from its previous report (signed quantities)
   * @returns false when the leg's latest update is later (this one is stale and changed nothing)
   */
  reported(key: string, updateAt: number, moved: Dec): boolean {
    if (updateAt < (this.#reportedAt.get(key) ?? Number.NEGATIVE_INFINITY)) return false;
    this.#reportedAt.set(key, updateAt);
    const list = this.#byLeg.get(key);
    let included = ZERO;
    if (list !== undefined) {
      const after: UnreportedFill[] = [];
      for (const fill of list) {
        if (fill.ts > updateAt) after.push(fill);
        else included = included.add(fill.qty);
      }
      if (after.length === 0) this.#byLeg.delete(key);
      else this.#byLeg.set(key, after);
    }
    this.#ahead.set(key, moved.sub(included));
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
