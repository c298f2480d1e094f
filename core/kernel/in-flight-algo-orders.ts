import type { AlgoOrderType, CancelAllAlgoOrdersIntent, PlaceAlgoOrderIntent } from '../model/index.ts';

/** An algo order sent to the venue and not answered yet. */
interface SentAlgoOrder {
  /** The strategy that sent it. */
  readonly owner: string;
  readonly sym: string;
  readonly algoOrderType: AlgoOrderType;
}

/** How many in-flight algo orders a cancel-all would reach, the caller's and other strategies'. */
export interface InFlightAlgoCount {
  readonly own: number;
  readonly others: number;
}

/**
 * The algo orders Keel sent and the venue has not answered yet: they are not among the open algo
 * orders Keel knows, but a venue-wide cancel-all sent now may reach them. An algo order leaves
 * this book at the venue's first word on it (an algo order update) or at a refusal; one whose
 * outcome is unknown (`COMMAND_OUTCOME_UNKNOWN`) stays until an update names it (a look-up or the
 * next reconciliation), since it may exist.
 */
export class InFlightAlgoOrders {
  private readonly sent = new Map<string, SentAlgoOrder>();

  /**
   * Records an algo order about to be sent.
   * @param intent - the algo order
   * @param owner - the strategy sending it
   */
  sending(intent: PlaceAlgoOrderIntent, owner: string): void {
    this.sent.set(intent.ref, { owner, sym: intent.sym, algoOrderType: intent.algoOrderType });
  }

  /**
   * The venue answered (an update of the algo order, or a refusal of it): it is no longer in flight.
   * @param clientAlgoOrderId - the algo order's reference
   */
  answered(clientAlgoOrderId: string): void {
    if (this.sent.size > 0) this.sent.delete(clientAlgoOrderId);
  }

  /**
   * How many in-flight algo orders a cancel-all matches (its sym and algo order type, when given).
   * @param intent - the cancel-all
   * @param owner - the strategy sending it
   * @returns the caller's and the other strategies' counts
   */
  matching(intent: CancelAllAlgoOrdersIntent, owner: string): InFlightAlgoCount {
    let own = 0;
    let others = 0;
    for (const algo of this.sent.values()) {
      if (intent.sym !== undefined && algo.sym !== intent.sym) continue;
      if (intent.algoOrderType !== undefined && algo.algoOrderType !== intent.algoOrderType) continue;
      if (algo.owner === owner) own++;
      else others++;
    }
    return { own, others };
  }
}
