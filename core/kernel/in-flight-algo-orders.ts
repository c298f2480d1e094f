import type {
  CancelAllAlgoOrdersIntent,
  PlaceAlgoOrderIntent,
  ReplaceAlgoOrderIntent,
} from '../model/index.ts';

const NO_REPLACES: readonly ReplaceAlgoOrderIntent[] = [];

/** An algo order sent to the venue and not answered yet. */
interface SentAlgoOrder {
  /** The strategy that sent it. */
  readonly owner: string;
  /** What was sent, with the replaces sent on it since (and not refused) merged in. */
  intent: PlaceAlgoOrderIntent;
  /** What was sent itself: a refused replace's terms are taken back out of it. */
  readonly placed: PlaceAlgoOrderIntent;
  /** The replaces merged into {@link SentAlgoOrder.intent}, in sending order. */
  readonly merged: ReplaceAlgoOrderIntent[];
  /** The venue's answer never came and the look-ups failed (`COMMAND_OUTCOME_UNKNOWN`). */
  unknown: boolean;
}

/** An in-flight algo order by its reference and sym. */
export interface InFlightAlgoRef {
  readonly ref: string;
  readonly sym: string;
}

/** An in-flight algo order: its reference and sym, and what was sent. */
export interface InFlightAlgoOrder extends InFlightAlgoRef {
  readonly intent: PlaceAlgoOrderIntent;
}

/**
 * The algo orders Keel sent and the venue has not answered yet: they are not among the open algo
 * orders Keel knows, but the venue may hold them, so a strategy's cancel-all and a sweep of its
 * orders cancel them too (by reference, the cancel reaching the venue after them). An algo order leaves
 * this book at the venue's first word on it (an algo order update) or at a refusal. One whose
 * outcome is unknown (`COMMAND_OUTCOME_UNKNOWN`) may exist, so it stays until an update names it,
 * a reconciliation of the venue's orders does not (the venue holds no such algo order open), or
 * the venue refuses a cancel of it as not found or already final. Sending a cancel does not end
 * it: the venue may refuse the cancel otherwise (a rate limit) or its outcome may be unknown too,
 * and the algo order, live, would then hold a `maxOpenOrders` slot the book had given back.
 */
export class InFlightAlgoOrders {
  private readonly sent = new Map<string, SentAlgoOrder>();
  /** Cancels sent of in-flight algo orders, by the cancel's reference: the algo order each targets. */
  private readonly cancels = new Map<string, string>();
  /**
   * Replaces sent on algo orders the venue acknowledged and not answered yet, by the algo order's
   * reference: the venue's copy stands until it answers, and then it may hold either terms.
   */
  private readonly replaces = new Map<string, ReplaceAlgoOrderIntent[]>();

  /**
   * Records an algo order about to be sent.
   * @param intent - the algo order
   * @param owner - the strategy sending it
   */
  sending(intent: PlaceAlgoOrderIntent, owner: string): void {
    this.sent.set(intent.ref, { owner, intent, placed: intent, merged: [], unknown: false });
  }

  /**
   * Records a replace about to be sent. Of an in-flight algo order: until the venue answers, the
   * algo order is judged as sent with the replace's new values (the venue applies the replace
   * after the placement). Of one the venue acknowledged: the replace is held until the venue's
   * next word on that algo order or a refusal of it (see {@link replacesOf}).
   * @param intent - the replace
   */
  replacing(intent: ReplaceAlgoOrderIntent): void {
    const sent = this.sent.get(intent.target);
    if (sent === undefined) {
      const held = this.replaces.get(intent.target);
      if (held === undefined) this.replaces.set(intent.target, [intent]);
      else held.push(intent);
      return;
    }
    sent.merged.push(intent);
    sent.intent = withReplace(sent.intent, intent);
  }

  /**
   * An algo order sent and not answered yet, as {@link replacing} left it.
   * @param clientAlgoOrderId - its reference
   * @returns what was sent with the replaces since merged in, or undefined when not in flight
   */
  sentAs(clientAlgoOrderId: string): PlaceAlgoOrderIntent | undefined {
    return this.sent.size === 0 ? undefined : this.sent.get(clientAlgoOrderId)?.intent;
  }

  /**
   * The replaces sent on an algo order the venue acknowledged, not answered yet: until the venue
   * answers, it may hold the algo order on its old terms or on any of theirs.
   * @param clientAlgoOrderId - the algo order's reference
   * @returns the replaces in sending order, empty when none is in flight
   */
  replacesOf(clientAlgoOrderId: string): readonly ReplaceAlgoOrderIntent[] {
    return this.replaces.size === 0 ? NO_REPLACES : (this.replaces.get(clientAlgoOrderId) ?? NO_REPLACES);
  }

  /**
   * The venue answered (an update of the algo order, or a refusal of it): it is no longer in
   * flight, and its word answers the replaces sent on it.
   * @param clientAlgoOrderId - the algo order's reference
   */
  answered(clientAlgoOrderId: string): void {
    if (this.sent.size > 0) this.sent.delete(clientAlgoOrderId);
    if (this.replaces.size > 0) this.replaces.delete(clientAlgoOrderId);
    this.forgetCancelsOf(clientAlgoOrderId);
  }

  /**
   * The venue refused a replace: of an algo order it acknowledged, the replace is no longer held;
   * of one in flight, its terms are taken back out of what the algo order is judged as (the
   * placement with the other replaces merged in). One whose answer never came
   * (`COMMAND_OUTCOME_UNKNOWN`) may have been applied: it stays until the venue's next word on
   * the algo order.
   * @param replaceRef - the replace's reference
   * @param outcomeUnknown - the refusal is Keel's: the answer never came
   */
  replaceRefused(replaceRef: string, outcomeUnknown: boolean): void {
    if (outcomeUnknown) return;
    for (const sent of this.sent.values()) {
      const at = sent.merged.findIndex((replace) => replace.ref === replaceRef);
      if (at === -1) continue;
      sent.merged.splice(at, 1);
      sent.intent = sent.merged.reduce(withReplace, sent.placed);
      return;
    }
    if (this.replaces.size === 0) return;
    for (const [target, held] of this.replaces) {
      const at = held.findIndex((replace) => replace.ref === replaceRef);
      if (at === -1) continue;
      held.splice(at, 1);
      if (held.length === 0) this.replaces.delete(target);
      return;
    }
  }

  /**
   * A cancel of an algo order is about to be sent: when that algo order is in flight, the venue's
   * refusal of the cancel is noted for it (see {@link cancelRefused}).
   * @param cancelRef - the cancel's reference
   * @param target - the algo order's reference
   */
  cancelling(cancelRef: string, target: string): void {
    if (this.sent.has(target)) this.cancels.set(cancelRef, target);
  }

  /**
   * The venue refused a cancel. When it holds no such algo order open (not found, or already
   * final), the algo order the cancel named, its outcome unknown, is not on the venue.
   * @param cancelRef - the cancel's reference
   * @param notOpen - the refusal shows the venue holds no such algo order open
   */
  cancelRefused(cancelRef: string, notOpen: boolean): void {
    const target = this.cancels.get(cancelRef);
    if (target === undefined) return;
    this.cancels.delete(cancelRef);
    if (notOpen && this.sent.get(target)?.unknown === true) this.answered(target);
  }

  private forgetCancelsOf(target: string): void {
    if (this.cancels.size === 0) return;
    for (const [cancelRef, cancelled] of this.cancels)
      if (cancelled === target) this.cancels.delete(cancelRef);
  }

  /**
   * The venue's answer to an algo order never came and the look-ups failed: it may exist, until a
   * reconciliation says otherwise.
   * @param clientAlgoOrderId - the algo order's reference
   */
  outcomeUnknown(clientAlgoOrderId: string): void {
    const sent = this.sent.get(clientAlgoOrderId);
    if (sent !== undefined) sent.unknown = true;
  }

  /**
   * The venue's orders were read again (a reconciliation) and every algo order it holds open was
   * reported: those whose outcome was unknown and that it did not name are not on the venue.
   */
  reconciled(): void {
    for (const [ref, sent] of this.sent) if (sent.unknown) this.answered(ref);
  }

  /**
   * A strategy's in-flight algo orders a cancel-all matches (its sym and algo order type, when given).
   * @param intent - the cancel-all
   * @param owner - the strategy sending it
   * @returns the strategy's in-flight algo orders it reaches, in sending order
   */
  matching(intent: CancelAllAlgoOrdersIntent, owner: string): readonly InFlightAlgoRef[] {
    const own: InFlightAlgoRef[] = [];
    for (const [ref, algo] of this.sent) {
      if (algo.owner !== owner) continue;
      const sent = algo.intent;
      if (intent.sym !== undefined && sent.sym !== intent.sym) continue;
      if (intent.algoOrderType !== undefined && sent.algoOrderType !== intent.algoOrderType) continue;
      own.push({ ref, sym: sent.sym });
    }
    return own;
  }

  /**
   * How many algo orders were sent and not answered yet.
   * @param owner - only this strategy's, when given
   * @returns the count (no walk when every strategy's, or when none is in flight)
   */
  count(owner?: string): number {
    if (owner === undefined || this.sent.size === 0) return this.sent.size;
    let count = 0;
    for (const algo of this.sent.values()) if (algo.owner === owner) count++;
    return count;
  }

  /**
   * Hands each algo order sent and not answered yet to `visit`, as {@link sentAs} gives it.
   * @param owner - only this strategy's, when given
   * @param visit - called once per algo order, in sending order
   */
  forEachSent(owner: string | undefined, visit: (intent: PlaceAlgoOrderIntent) => void): void {
    if (this.sent.size === 0) return;
    for (const algo of this.sent.values())
      if (owner === undefined || algo.owner === owner) visit(algo.intent);
  }

  /**
   * The references of the algo orders a strategy sent that the venue has not answered yet.
   * @param owner - the strategy
   * @returns its in-flight algo orders with what was sent, in sending order
   */
  ownedBy(owner: string): readonly InFlightAlgoOrder[] {
    return [...this.sent]
      .filter(([, algo]) => algo.owner === owner)
      .map(([ref, algo]) => ({ ref, sym: algo.intent.sym, intent: algo.intent }));
  }
}

/** An algo order's terms with a replace's new values. */
function withReplace(intent: PlaceAlgoOrderIntent, replace: ReplaceAlgoOrderIntent): PlaceAlgoOrderIntent {
  return {
    ...intent,
    ...(replace.triggerPrice === undefined ? {} : { triggerPrice: replace.triggerPrice }),
    ...(replace.price === undefined ? {} : { price: replace.price }),
    ...(replace.qty === undefined ? {} : { qty: replace.qty }),
  };
}
