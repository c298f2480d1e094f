import type { Dec, Order } from '../model/index.ts';
import { isFinalOrderState } from '../model/index.ts';
import { orderKey } from './order-keys.ts';
import type { OrderRegistry } from './order-registry.ts';
import { RecentRefs } from './recent-refs.ts';
import { RetentionQueue } from './retention-queue.ts';

const NO_TARGETS: readonly string[] = [];

/**
 * Whether a venue update of an order with requests in flight answers none of them: the order is
 * not final and keeps its terms (quantity, price), and the update is a fill (action FILL, or,
 * from a venue that names no action, a larger executed quantity) or the venue's CANCEL_PENDING.
 */
function answersNothing(before: Order, update: Order): boolean {
  if (isFinalOrderState(update.orderState)) return false;
  // The action says most updates answer a request before any Decimal is compared; a venue usually
  // hands on the very Decimal it sent before, equal without a comparison (which copies its argument).
  if (update.action !== undefined && update.action !== 'FILL' && update.action !== 'CANCEL_PENDING')
    return false;
  if (!sameDecimal(update.orderQty, before.orderQty) || !sameDecimal(update.limitPrice, before.limitPrice))
    return false;
  return update.action !== undefined || update.executedQty.gt(before.executedQty);
}

function sameDecimal(a: Dec, b: Dec): boolean {
  return a === b || a.eq(b);
}

/** An order Keel shows in flight (PENDING_CANCEL / PENDING_REPLACE) while requests on it are unanswered. */
interface MarkedOrder {
  /** The venue's last word before the first request: what a refusal puts back. */
  venueWord: Order;
  /** Keel's placeholder, as stored; a venue update replaces it and then the venue's word stands. */
  placeholder: Order;
  /** Requests on the order not answered yet (rarely more than one: a list, not a Set). */
  readonly pending: string[];
  /**
   * The largest qty the modifies among them ask for (undefined when none asks one): until the
   * venue answers, the order may fill at it, so the risk gate counts it so.
   */
  claimQty: Dec | undefined;
  /** The largest price the modifies among them ask for (undefined when none asks one), as {@link claimQty}. */
  claimPrice: Dec | undefined;
  /**
   * The order was not acknowledged yet (PENDING_NEW) when its first request was sent: it keeps
   * showing PENDING_NEW, with the claims, and its acknowledgement on the placed terms shows it
   * {@link MarkedOrder.unackedState}, the claims kept, until the venue answers the requests.
   */
  unacked: boolean;
  /**
   * What an unacknowledged order shows once acknowledged on the placed terms: PENDING_CANCEL
   * when a cancel is among its requests, else PENDING_REPLACE.
   */
  unackedState: 'PENDING_CANCEL' | 'PENDING_REPLACE';
}

/** The orders a request acts on and how they show while it is in flight. */
export interface InFlightMarking {
  /** The clientOrderIds the request acts on. */
  readonly targets: readonly string[];
  readonly orderState: 'PENDING_CANCEL' | 'PENDING_REPLACE';
  /** The run's time, epoch ms. */
  readonly now: number;
}

/** What a refusal of a modify or cancel request undoes. */
export interface RefusedRequest {
  /** The strategy that sent the request. */
  readonly owner: string;
  /** Every order the request acted on, as it now stands (for a look-up when the outcome is unknown). */
  readonly targets: readonly Order[];
}

/**
 * Keel's book of modify and cancel requests in flight. Sending one marks its target orders
 * PENDING_REPLACE / PENDING_CANCEL; a venue update of the order ends that (the venue's word
 * stands), except a fill on the old terms, which answers nothing (`venueUpdated`); a refusal (or an answer that never came) puts the order back to the venue's last word
 * once no other request on it is in flight, so a strategy waiting for its order to leave
 * PENDING_* is not stuck for good, and tells who sent it. The last `retain` requests and marked
 * orders are remembered (Keel's choice), so memory stays bounded on long runs.
 *
 * The kernel keeps no clock on a request: every execution port answers or gives up itself. The
 * simulated venue answers within the same event; the live venue adapter looks up a new order
 * whose ack never came, and reports a modify or cancel whose answer never came as a
 * `commandRejected` with code `COMMAND_OUTCOME_UNKNOWN` (-1), after which the kernel looks its
 * orders up.
 */
export class InFlightRequests {
  /** The last `retain` requests sent; their owners and targets sit at their slots. */
  private readonly refs: RecentRefs;
  private readonly owners: string[];
  /** The clientOrderIds each request acts on: one as itself (a modify or a cancel), not in an array. */
  private readonly targets: (readonly string[] | string)[];
  private readonly marked = new Map<string, MarkedOrder>();
  private readonly recentMarked: RetentionQueue;

  /**
   * @param orders - the kernel's order registry (where placeholders are stored)
   * @param retain - how many requests, and how many marked orders, are remembered (default 10 000)
   */
  constructor(
    private readonly orders: OrderRegistry,
    retain = 10_000,
  ) {
    this.recentMarked = new RetentionQueue(retain);
    this.refs = new RecentRefs(retain);
    this.owners = new Array(Math.max(0, retain)).fill('');
    this.targets = new Array(Math.max(0, retain)).fill(NO_TARGETS);
  }

  /**
   * Records a request about to be sent and marks the orders it acts on in flight. An order that
   * is final is left as it is; one not acknowledged yet (PENDING_NEW) keeps showing PENDING_NEW
   * (a modify of one claims its qty and price meanwhile) until the venue's first word on it.
   * @param requestRef - the request's reference
   * @param owner - the strategy sending it
   * @param marking - the clientOrderIds it acts on, the in-flight state to show and the run's
   *   time (epoch ms); none for a request on algo orders
   */
  sent(requestRef: string, owner: string, marking?: InFlightMarking): void {
    const targets = marking === undefined ? NO_TARGETS : marking.targets;
    this.remember(requestRef, owner, targets);
    if (marking !== undefined)
      for (const target of targets) this.mark(target, requestRef, marking.orderState, marking.now);
  }

  /**
   * {@link InFlightRequests.sent} for a request on one order (a modify or a cancel), without the
   * marking record and target list a request per quote would make.
   * @param requestRef - the request's reference
   * @param owner - the strategy sending it
   * @param target - the clientOrderId it acts on
   * @param orderState - the in-flight state to show
   * @param now - the run's time, epoch ms
   * @param qty - the new qty a modify asks for (none: it keeps the order's)
   * @param price - the new price a modify asks for (none: it keeps the order's)
   */
  sentOn(
    requestRef: string,
    owner: string,
    target: string,
    orderState: InFlightMarking['orderState'],
    now: number,
    qty?: Dec,
    price?: Dec,
  ): void {
    this.remember(requestRef, owner, target);
    this.mark(target, requestRef, orderState, now, qty, price);
  }

  /**
   * The largest qty the modifies in flight on an order ask for, while the order shows Keel's
   * placeholder (the venue has not answered them): the order may fill at it meanwhile.
   * @param order - an open order, as the registry holds it
   * @returns the qty, or undefined when no modify asking one is in flight on it
   */
  claimedQty(order: Order): Dec | undefined {
    return this.claimOf(order)?.claimQty;
  }

  /**
   * The largest price the modifies in flight on an order ask for, as {@link claimedQty}: until
   * the venue answers, the order may rest (and fill) at it.
   * @param order - an open order, as the registry holds it
   * @returns the price, or undefined when no modify asking one is in flight on it
   */
  claimedPrice(order: Order): Dec | undefined {
    return this.claimOf(order)?.claimPrice;
  }

  /**
   * The requests in flight on an order while it shows Keel's placeholder (the venue has not
   * answered them).
   * @param clientOrderId - the order
   * @returns their references, oldest first; none when nothing is in flight on it
   */
  pendingOn(clientOrderId: string): readonly string[] {
    const marked = this.marked.get(clientOrderId);
    return marked !== undefined && this.orders.byRef.get(clientOrderId) === marked.placeholder
      ? marked.pending
      : NO_TARGETS;
  }

  private claimOf(order: Order): MarkedOrder | undefined {
    if (this.marked.size === 0) return undefined;
    const marked = this.marked.get(orderKey(order));
    return marked !== undefined && marked.placeholder === order ? marked : undefined;
  }

  private remember(requestRef: string, owner: string, targets: readonly string[] | string): void {
    const slot = this.refs.push(requestRef);
    if (slot === -1) return;
    this.owners[slot] = owner;
    this.targets[slot] = targets;
  }

  /**
   * The slot of a request while it is among the last `retain` sent, searched newest first; -1 when
   * not remembered. A reference the registry knows an owner of names a new order, algo order,
   * close or loan, never a modify or cancel request (references are used once per run): it is not
   * searched for.
   */
  private slotOf(requestRef: string): number {
    if (this.orders.recordedOwner(requestRef) !== undefined) return -1;
    return this.refs.slotOf(requestRef);
  }

  /**
   * @param requestRef - a request's reference
   * @returns the strategy that sent it, while remembered
   */
  ownerOf(requestRef: string): string | undefined {
    const slot = this.slotOf(requestRef);
    return slot === -1 ? undefined : this.owners[slot];
  }

  /**
   * The venue refused the request, or its answer never came: each target still showing Keel's
   * placeholder, with no other request on it in flight, is put back to the venue's last word.
   * @param requestRef - the refused request's reference
   * @returns who sent it and its target orders as they now stand, or undefined for a request not remembered
   */
  refused(requestRef: string): RefusedRequest | undefined {
    const slot = this.slotOf(requestRef);
    if (slot === -1) return undefined;
    const owner = this.owners[slot] as string;
    const sentOn = this.targets[slot] as readonly string[] | string;
    this.refs.forget(slot);
    const targets: Order[] = [];
    const refs = typeof sentOn === 'string' ? [sentOn] : sentOn;
    for (const target of refs) {
      const marked = this.marked.get(target);
      if (marked !== undefined) {
        const at = marked.pending.indexOf(requestRef);
        if (at !== -1) marked.pending.splice(at, 1);
        if (this.orders.byRef.get(target) !== marked.placeholder) this.marked.delete(target);
        else if (marked.pending.length === 0 && marked.unacked) this.marked.delete(target);
        else if (marked.pending.length === 0) {
          this.orders.applyLocal(marked.venueWord);
          this.marked.delete(target);
        }
      }
      const current = this.orders.byRef.get(target);
      if (current !== undefined) targets.push(current);
    }
    return { owner, targets };
  }

  /**
   * A venue update of an order, just folded into the registry. A fill on the order's old terms
   * (or, under a cancel, the venue's CANCEL_PENDING) answers none of the requests in flight on it:
   * the order keeps showing PENDING_REPLACE / PENDING_CANCEL, on the venue's new figures, so a
   * strategy waiting for the answer does not send the same request again. Any other word of the
   * venue (an amendment, a final state, new terms) stands. The venue's own final state (not one
   * Keel synthesized, which the venue's later word may undo) ends the order's record at once: a
   * late refusal of a request on it finds the order final with or without it, and a record kept
   * until {@link InFlightRequests.forgetMarked} pushed it out held the order's last placeholder and
   * venue word through `retain` more marks, long enough to be promoted out of the young generation.
   * @param order - the order as the venue reported it
   */
  venueUpdated(order: Order): void {
    const target = orderKey(order);
    const marked = this.marked.get(target);
    if (marked === undefined || this.orders.byRef.get(target) !== order) return;
    if (isFinalOrderState(order.orderState) && order.synthesized !== true) {
      this.marked.delete(target);
      return;
    }
    if (marked.pending.length === 0) return;
    if (marked.unacked) {
      this.acknowledged(marked, order);
      return;
    }
    if (!answersNothing(marked.venueWord, order)) return;
    marked.venueWord = order;
    marked.placeholder = { ...order, orderState: marked.placeholder.orderState };
    this.orders.applyLocal(marked.placeholder);
  }

  /**
   * The venue's first word on an order a modify or cancel was sent on before its acknowledgement:
   * on the placed terms and not final, the requests are still unanswered, so the order shows
   * PENDING_CANCEL (a cancel among them) or PENDING_REPLACE with the modifies' claims; any other
   * word (new terms, a final state) stands.
   */
  private acknowledged(marked: MarkedOrder, order: Order): void {
    marked.unacked = false;
    const placed = marked.venueWord;
    if (
      isFinalOrderState(order.orderState) ||
      !sameDecimal(order.orderQty, placed.orderQty) ||
      !sameDecimal(order.limitPrice, placed.limitPrice)
    )
      return;
    marked.venueWord = order;
    marked.placeholder = { ...order, orderState: marked.unackedState };
    this.orders.applyLocal(marked.placeholder);
  }

  private mark(
    target: string,
    requestRef: string,
    orderState: InFlightMarking['orderState'],
    now: number,
    qty?: Dec,
    price?: Dec,
  ): void {
    const order = this.orders.byRef.get(target);
    if (order === undefined || isFinalOrderState(order.orderState)) return;
    const unacked = order.orderState === 'PENDING_NEW';
    let marked = this.marked.get(target);
    // A placeholder the venue has not replaced yet: earlier requests are still in flight.
    if (marked === undefined || marked.placeholder !== order) {
      if (marked === undefined) {
        marked = {
          venueWord: order,
          placeholder: order,
          pending: [],
          claimQty: undefined,
          claimPrice: undefined,
          unacked,
          unackedState: orderState,
        };
        this.marked.set(target, marked);
      } else {
        marked.claimQty = undefined;
        marked.claimPrice = undefined;
        marked.unacked = unacked;
        marked.unackedState = orderState;
        // The venue's word replaced the placeholder: the order starts over, in the same record,
        // its list holding this request alone, in the same array (emptying it drops its storage,
        // which the next push allocates again: once per modify of a quote).
        marked.venueWord = order;
        if (marked.pending.length > 0) {
          marked.pending[0] = requestRef;
          marked.pending.length = 1;
        }
      }
      const evicted = this.recentMarked.push(target);
      if (evicted !== undefined && evicted !== target) this.forgetMarked(evicted);
    }
    if (!marked.pending.includes(requestRef)) marked.pending.push(requestRef);
    if (qty !== undefined && (marked.claimQty === undefined || qty.gt(marked.claimQty)))
      marked.claimQty = qty;
    if (price !== undefined && (marked.claimPrice === undefined || price.gt(marked.claimPrice)))
      marked.claimPrice = price;
    // Not acknowledged: it shows PENDING_NEW until the venue's first word (see acknowledged).
    if (unacked) {
      if (orderState === 'PENDING_CANCEL') marked.unackedState = orderState;
      return;
    }
    marked.placeholder = { ...order, orderState, updateAt: now };
    this.orders.applyLocal(marked.placeholder);
  }

  /** Forgets a marked order that left the retention window, unless it was marked again since. */
  private forgetMarked(target: string): void {
    const marked = this.marked.get(target);
    if (marked !== undefined && this.orders.byRef.get(target) !== marked.placeholder)
      this.marked.delete(target);
  }
}
