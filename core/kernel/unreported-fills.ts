import { type Dec, type Execution, type Position, signedPositionQty, ZERO } from '../model/index.ts';

/** A fill's signed quantity (BUY > 0, SELL < 0) and its venue time. */
interface UnreportedFill {
  readonly ts: number;
  readonly qty: Dec;
}

/**
 * How far a leg's latest update moved it beyond the fills booked by then: the update, the one
 * before it and the fills it included, subtracted only when a fill stamped no later than the
 * update arrives after it (a venue that reports the position first), as most never does.
 */
interface AheadOfFills {
  readonly update: Position;
  readonly previous: Position | undefined;
  readonly included: readonly UnreportedFill[] | undefined;
  /** The signed quantity once worked out, less the fills it absorbed since. */
  value: Dec | undefined;
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
  readonly #ahead = new Map<string, AheadOfFills>();

  /**
   * Books a fill on its leg unless the leg's latest position update already includes it.
   * @param key - the fill's leg's positions key (`positionKey` of its sym and position side)
   * @param execution - the fill, booked once
   */
  add(key: string, execution: Execution): void {
    const qty = execution.side === 'BUY' ? execution.quantity : execution.quantity.neg();
    if (execution.timestamp <= (this.#reportedAt.get(key) ?? Number.NEGATIVE_INFINITY)) {
      const entry = this.#ahead.get(key);
      const ahead = entry === undefined ? ZERO : aheadOf(entry);
      if (
        entry !== undefined &&
        !ahead.isZero() &&
        qty.isNeg() === ahead.isNeg() &&
        qty.abs().lte(ahead.abs())
      ) {
        entry.value = ahead.sub(qty);
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
   * @param update - the update
   * @param previous - the leg's previous report (undefined: none): the update moves the leg from it
   * @returns false when the leg's latest update is later (this one is stale and changed nothing)
   */
  reported(key: string, update: Position, previous: Position | undefined): boolean {
    const updateAt = update.updateAt;
    if (updateAt < (this.#reportedAt.get(key) ?? Number.NEGATIVE_INFINITY)) return false;
    this.#reportedAt.set(key, updateAt);
    let list = this.#byLeg.get(key);
    if (list !== undefined) {
      let after: UnreportedFill[] | undefined;
      let included: UnreportedFill[] | undefined;
      for (let i = 0; i < list.length; i++) {
        const fill = list[i] as UnreportedFill;
        if (fill.ts > updateAt) {
          // The first fill after the update: those before it are all included.
          if (after === undefined) {
            after = [];
            included = list.slice(0, i);
          }
          after.push(fill);
        } else if (included !== undefined) included.push(fill);
      }
      if (after === undefined) this.#byLeg.delete(key);
      else {
        this.#byLeg.set(key, after);
        list = included;
      }
    }
    this.#ahead.set(key, { update, previous, included: list, value: undefined });
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

/** The signed quantity of {@link AheadOfFills}, worked out on first use. */
function aheadOf(entry: AheadOfFills): Dec {
  if (entry.value !== undefined) return entry.value;
  const { update, previous } = entry;
  const moved = signedPositionQty(update).sub(previous === undefined ? ZERO : signedPositionQty(previous));
  let included = ZERO;
  for (const fill of entry.included ?? []) included = included.add(fill.qty);
  entry.value = moved.sub(included);
  return entry.value;
}
