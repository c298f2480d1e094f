import { type Observable, Subject } from 'rxjs';
import { isFinalAlgoState, type OrderRecord } from '../../backtest/report/index.ts';
import { type AlgoOrder, isFinalOrderState, type UserEvent } from '../../core/model/index.ts';

/** An open leg the kernel was given, with the parent it is attached to. */
interface OpenLeg {
  readonly leg: AlgoOrder;
  readonly parent: OrderRecord;
}

/**
 * The take-profit / stop-loss legs read from the venue (see `AttachedLegLookups`), as User Data
 * for the kernel: each leg reaches it as the venue's algo order, which the kernel files under the
 * parent's strategy (as reconciliation's are), so `ctx.openAlgoOrders()` lists it and the strategy
 * may cancel or amend it, as in a backtest. The venue pushes no algo order updates, so a leg's
 * later states are taken where the venue shows them: a cancel or amend the strategy sends comes
 * back in the venue's reply; a leg that fires is TRIGGERED once the order it sends (which names
 * it) arrives, as the session's journal takes it; and the venue is asked for a parent's legs again
 * once one of them fired or an order on their sym ended with fills (the venue may end a leg's
 * sibling with it, or legs whose position went flat) and after the private stream was
 * reconciled, so a leg the venue ended does not stay listed.
 */
export class AttachedLegFeed {
  private readonly legs = new Subject<UserEvent>();
  /** The legs given to the kernel that are still open, by the venue's algoOrderId. */
  private readonly open = new Map<string, OpenLeg>();

  /**
   * @param reread - asks the venue for a parent's legs again (their answer comes back to
   *   {@link attachedLeg})
   */
  constructor(private readonly reread: (parent: OrderRecord) => void) {}

  /** The legs' algo order events, for the kernel's User Data. */
  get events(): Observable<UserEvent> {
    return this.legs;
  }

  /**
   * Takes a leg as the venue reported it, and passes it to the kernel.
   * @param leg - the algo order, naming its parent in `attachedOrderId`
   * @param parent - its parent order
   */
  attachedLeg(leg: AlgoOrder, parent: OrderRecord): void {
    this.track(leg, parent);
    this.emit(leg);
  }

  /**
   * Takes one User Data event of the venue's, before the kernel does: an order naming an open leg
   * makes it TRIGGERED for the kernel first, as a backtest's venue reports an algo order's end
   * before the order it sent.
   * @param event - the event as the execution client emitted it
   */
  observe(event: UserEvent): void {
    if (this.open.size === 0) return;
    if (event.kind === 'algoOrder') {
      const known = this.open.get(event.algoOrder.algoOrderId);
      if (known !== undefined) this.track(event.algoOrder, known.parent);
      return;
    }
    if (event.kind !== 'order') return;
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
      this.reread(fired.parent);
    }
    if (isFinalOrderState(order.orderState) && order.executedQty.gt(0)) this.rereadOpen(order.sym);
  }

  /**
   * The private stream was reconciled after a login: the legs may have ended while it was down,
   * and reconciliation ends only the algo orders the execution client knew of, so the venue is
   * asked again for every open leg.
   */
  reconciled(): void {
    this.rereadOpen(undefined);
  }

  /** Asks the venue again for the parents of the open legs (of `sym`, or all). */
  private rereadOpen(sym: string | undefined): void {
    const parents = new Map<string, OrderRecord>();
    for (const { leg, parent } of this.open.values())
      if (sym === undefined || leg.sym === sym) parents.set(parent.orderId, parent);
    for (const parent of parents.values()) this.reread(parent);
  }

  private track(leg: AlgoOrder, parent: OrderRecord): void {
    if (isFinalAlgoState(leg.state)) this.open.delete(leg.algoOrderId);
    else this.open.set(leg.algoOrderId, { leg, parent });
  }

  private emit(leg: AlgoOrder): void {
    this.legs.next({ kind: 'algoOrder', ts: leg.updateAt, recvTs: leg.updateAt, algoOrder: leg });
  }
}
