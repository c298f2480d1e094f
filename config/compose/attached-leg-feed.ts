import { type Observable, Subject } from 'rxjs';
import {
  type AlgoOrder,
  isFinalAlgoState,
  isFinalOrderState,
  type Order,
  type UserEvent,
} from '../../core/model/index.ts';

/**
 * The order whose legs the venue is asked for: a session's order that carried tp / sl (its record,
 * once it ended), or the parent of legs the kernel was given, asked for again.
 */
export type LegParent = Pick<Order, 'orderId' | 'clientOrderId' | 'sym' | 'createAt' | 'tp' | 'sl'> & {
  /** The strategy owning it, when known. */
  readonly strategyId?: string | undefined;
  /**
   * Only these legs (by algoOrderId) are asked for, each by its id, when set: the legs still open
   * of a parent whose legs are known (found when it ended, or open at start-up: a sibling may have
   * ended before the session started).
   */
  readonly legIds?: ReadonlySet<string>;
};

/** An open leg the kernel was given, with the parent it is attached to. */
interface OpenLeg {
  readonly leg: AlgoOrder;
  readonly parent: LegParent;
  /**
   * Whether the execution client reported it open (it adopted it at start-up, a reconciliation
   * listed it, or a command's reply showed it): its reconciliations then end it if the venue no
   * longer lists it.
   */
  readonly reportedByClient: boolean;
}

/**
 * The take-profit / stop-loss legs read from the venue (see `AttachedLegLookups`), as User Data
 * for the kernel: each leg reaches it as the venue's algo order, which the kernel files under the
 * parent's strategy (as reconciliation's are), so `ctx.openAlgoOrders()` lists it and the strategy
 * may cancel or amend it, as in a backtest. The venue pushes no algo order updates, so a leg's
 * later states are taken where the venue shows them: a cancel or amend the strategy sends comes
 * back in the venue's reply; a leg that fires is TRIGGERED once the order it sends (which names
 * it) arrives, as the session's journal takes it; and the venue is asked again for a parent's
 * legs still open, each by its id, once one of them fired or an order on their sym ended with
 * fills (the venue may end a leg's sibling with it, or legs whose position went flat) and after
 * the private stream was reconciled, so a leg the venue ended does not stay listed. The legs open
 * at start-up (the venue's open algo orders that name a parent, which reconciliation gives the
 * kernel) are followed the same way; the execution client ends one of them that fired (it knows
 * them), and its siblings are then asked for.
 */
export class AttachedLegFeed {
  private readonly legs = new Subject<UserEvent>();
  /** The legs given to the kernel that are still open, by the venue's algoOrderId. */
  private readonly open = new Map<string, OpenLeg>();

  /**
   * @param reread - asks the venue for a parent's legs again (their answer comes back to
   *   {@link attachedLeg})
   */
  constructor(private readonly reread: (parent: LegParent) => void) {}

  /** The legs' algo order events, for the kernel's User Data. */
  get events(): Observable<UserEvent> {
    return this.legs;
  }

  /**
   * Takes a leg as the venue reported it, and passes it to the kernel.
   * @param leg - the algo order, naming its parent in `attachedOrderId`
   * @param parent - its parent order
   */
  attachedLeg(leg: AlgoOrder, parent: LegParent): void {
    this.track(leg, parent, this.open.get(leg.algoOrderId)?.reportedByClient ?? false);
    this.emit(leg);
  }

  /**
   * Takes one User Data event of the venue's, before the kernel does: an order naming an open leg
   * makes it TRIGGERED for the kernel first, as a backtest's venue reports an algo order's end
   * before the order it sent.
   * @param event - the event as the execution client emitted it
   */
  observe(event: UserEvent): void {
    if (event.kind === 'algoOrder') {
      this.algoOrderReported(event.algoOrder);
      return;
    }
    if (event.kind !== 'order' || this.open.size === 0) return;
    const { order } = event;
    const fired = order.algoOrderId ? this.open.get(order.algoOrderId) : undefined;
    if (fired !== undefined) {
      this.open.delete(fired.leg.algoOrderId);
      this.emit({
        ...fired.leg,
        state: 'TRIGGERED',
        orderId: order.orderId,
        updateAt: Math.max(fired.leg.updateAt, order.createAt),
      });
      this.rereadParentOf(fired);
    }
    if (isFinalOrderState(order.orderState) && order.executedQty.gt(0)) this.rereadOpen(order.sym);
  }

  /**
   * The private stream was reconciled after a login: the legs may have ended while it was down,
   * and reconciliation ends only the algo orders the execution client knew of, so the venue is
   * asked again for every open leg it did not report.
   */
  reconciled(): void {
    const unreported = new Map<string, OpenLeg>();
    for (const open of this.open.values())
      if (!open.reportedByClient) unreported.set(open.leg.attachedOrderId ?? '', open);
    for (const open of unreported.values()) this.rereadParentOf(open);
  }

  /**
   * An algo order the execution client reported: a known leg's update (a cancel's or amend's
   * reply, a reconciliation, or its end when the order it sent arrived, after which its siblings
   * are asked for again), or an open leg found at start-up (or by a later reconciliation), adopted.
   */
  private algoOrderReported(algo: AlgoOrder): void {
    const known = this.open.get(algo.algoOrderId);
    if (known !== undefined) {
      this.track(algo, known.parent, true);
      if (algo.state === 'TRIGGERED' || algo.state === 'FAILED') this.rereadParentOf(known);
    } else if (algo.attachedOrderId !== undefined && !isFinalAlgoState(algo.state))
      this.track(
        algo,
        { orderId: algo.attachedOrderId, clientOrderId: '', sym: algo.sym, createAt: algo.createAt },
        true,
      );
  }

  /** Asks the venue again for the parents of the open legs of `sym`. */
  private rereadOpen(sym: string): void {
    const parents = new Map<string, OpenLeg>();
    for (const open of this.open.values())
      if (open.leg.sym === sym) parents.set(open.leg.attachedOrderId ?? '', open);
    for (const open of parents.values()) this.rereadParentOf(open);
  }

  /**
   * Asks the venue again for the legs of a leg's parent still open, each by its id: a history read
   * from the parent's creation could miss a leg past the entries it reads (see `MAX_LEG_SCAN`).
   */
  private rereadParentOf({ leg, parent }: OpenLeg): void {
    const siblings = [...this.open.values()].filter(
      (open) => open.leg.attachedOrderId === leg.attachedOrderId,
    );
    if (siblings.length === 0) return;
    this.reread({
      orderId: parent.orderId,
      clientOrderId: parent.clientOrderId,
      sym: leg.sym,
      createAt: Math.min(...siblings.map((open) => open.leg.createAt)),
      strategyId: parent.strategyId,
      legIds: new Set(siblings.map((open) => open.leg.algoOrderId)),
    });
  }

  private track(leg: AlgoOrder, parent: LegParent, reportedByClient: boolean): void {
    if (isFinalAlgoState(leg.state)) this.open.delete(leg.algoOrderId);
    else this.open.set(leg.algoOrderId, { leg, parent, reportedByClient });
  }

  private emit(leg: AlgoOrder): void {
    this.legs.next({ kind: 'algoOrder', ts: leg.updateAt, recvTs: leg.updateAt, algoOrder: leg });
  }
}
