import type { Order, OrderUpdateEvent } from '../model/index.ts';
import { isFinalOrderState } from '../model/index.ts';
import type { ApprovedIntent } from '../risk/index.ts';
import type { ExecutionPort } from './execution-port.ts';
import { type LookupRules, nextLookupDeadline, orderAfterLookup } from './in-flight-lookups.ts';
import { orderFromPlaceIntent } from './order-from-place-intent.ts';
import { isNewerOrderUpdate } from './order-state-machine.ts';
import { effectiveOrder, type InFlightRequest, type TrackedOrder, TrackedOrders } from './tracked-orders.ts';

/** How the tracker is set up. */
export interface OrderTrackerOptions {
  /**
   * How long a request may wait for the venue before the order is looked up, in ms of the run's
   * clock. Keel's choice: 5000 by default.
   */
  readonly ackTimeoutMs?: number;
  /**
   * Lookups of an order whose cancel stays unconfirmed before the tracker gives up waiting and
   * shows the venue's state again (the strategy may cancel anew). Keel's choice: 3.
   */
  readonly maxLookups?: number;
  /** portfolioId written into placeholders of orders not acknowledged yet. */
  readonly portfolioId?: string;
  /**
   * Final orders remembered (for lookups by id and to absorb late duplicates) before the oldest
   * is forgotten. Keel's choice: 10 000. A venue update for a forgotten order is adopted as new.
   */
  readonly retainFinal?: number;
}

/**
 * Tracks every order Keel sends, by clientOrderId and orderId, through the in-flight states
 * (PENDING_NEW, PENDING_CANCEL, PENDING_REPLACE) to the venue's final word. Venue updates go
 * through the order state machine, so duplicates and late arrivals are absorbed. A request the
 * venue does not answer in time is looked up by its caller reference, never sent again.
 * Time comes from the caller (`now` arguments), so backtests run it on virtual time.
 *
 * Live orders, in-flight requests and final orders are kept apart: `openOrders` costs in
 * proportion to the open orders, `nextDeadline` and `checkTimeouts` to the requests in flight,
 * and only the last `retainFinal` final orders are remembered, so long runs stay bounded.
 */
export class OrderTracker {
  readonly #timeoutMs: number;
  readonly #maxLookups: number;
  readonly #portfolioId: string;
  readonly #orders: TrackedOrders;
  readonly #lookupRules: LookupRules;

  /**
   * @param options - ack timeout, lookup count and placeholder portfolioId
   */
  constructor(options: OrderTrackerOptions = {}) {
    this.#timeoutMs = options.ackTimeoutMs ?? 5000;
    this.#maxLookups = options.maxLookups ?? 3;
    this.#portfolioId = options.portfolioId ?? '';
    this.#orders = new TrackedOrders(options.retainFinal ?? 10_000);
    this.#lookupRules = {
      orders: this.#orders,
      timeoutMs: this.#timeoutMs,
      maxLookups: this.#maxLookups,
      onOrderUpdate: (update) => this.onOrderUpdate(update),
    };
  }

  /**
   * Records a command just handed to the execution port: a new order enters PENDING_NEW, a
   * cancel PENDING_CANCEL, a modification PENDING_REPLACE.
   * @param command - the approved command
   * @param now - when it was sent, epoch ms
   * @returns the orders whose state changed, as the strategy should now see them
   */
  onSubmitted(command: ApprovedIntent, now: number): readonly Order[] {
    const { intent, strategyId } = command;
    switch (intent.kind) {
      case 'placeOrder': {
        const order = orderFromPlaceIntent(intent, { portfolioId: this.#portfolioId, at: now });
        const entry: TrackedOrder = {
          ref: intent.ref,
          strategyId,
          order,
          fromVenue: false,
          pending: undefined,
          lookupRunning: false,
        };
        this.#orders.file(entry);
        this.#orders.setPending(entry, this.#request('new', intent.ref, now));
        return [effectiveOrder(entry)];
      }
      case 'cancelOrder':
        return this.#markPending([intent.target], 'cancel', intent.ref, now);
      case 'cancelOrders': {
        const targets =
          intent.targets ??
          this.openOrders(strategyId)
            .filter((order) => intent.sym === undefined || order.sym === intent.sym)
            .map((order) => order.clientOrderId);
        return this.#markPending(targets, 'cancel', intent.ref, now);
      }
      case 'modifyOrder':
        return this.#markPending([intent.target], 'replace', intent.ref, now);
      default:
        return [];
    }
  }

  /**
   * Folds a venue order update.
   * @param update - the order as the venue reports it
   * @returns the order as the strategy should now see it, or undefined when the update was a
   *   duplicate or stale and changed nothing
   */
  onOrderUpdate(update: Order): Order | undefined {
    const ref = this.#orders.refById.get(update.orderId) ?? update.clientOrderId;
    let entry = this.#orders.entry(ref);
    if (entry === undefined) {
      entry = {
        ref,
        strategyId: '',
        order: update,
        fromVenue: true,
        pending: undefined,
        lookupRunning: false,
      };
    } else if (!entry.fromVenue || isNewerOrderUpdate(entry.order, update)) {
      entry.order = update;
      entry.fromVenue = true;
    } else {
      return undefined;
    }
    if (update.orderId !== '') this.#orders.refById.set(update.orderId, ref);
    this.#settle(entry, update);
    this.#orders.file(entry);
    return effectiveOrder(entry);
  }

  /**
   * The venue refused a request that is not itself an order update (e.g. a cancel of an order
   * already final): the order leaves its in-flight state and keeps the venue's last word.
   * @param requestRef - the ref of the refused intent
   * @returns the order as it should now be seen, or undefined when the ref is not a pending request
   */
  onRequestRejected(requestRef: string): Order | undefined {
    const ref = this.#orders.requests.get(requestRef) ?? requestRef;
    const entry = this.#orders.inFlight.get(ref);
    if (entry?.pending === undefined || entry.pending.requestRef !== requestRef) return undefined;
    this.#orders.requests.delete(requestRef);
    if (entry.pending.kind === 'new') {
      entry.order = { ...entry.order, orderState: 'REJECTED', reason: 'the venue refused the request' };
    }
    this.#orders.setPending(entry, undefined);
    this.#orders.file(entry);
    return effectiveOrder(entry);
  }

  /**
   * An order by its caller reference.
   * @param clientOrderId - the caller reference
   * @returns the order as the strategy should see it (in-flight state included)
   */
  byClientOrderId(clientOrderId: string): Order | undefined {
    const entry = this.#orders.entry(clientOrderId);
    return entry === undefined ? undefined : effectiveOrder(entry);
  }

  /**
   * An order by the venue's id.
   * @param orderId - the venue's order id
   * @returns the order, or undefined when the venue never numbered it for us
   */
  byOrderId(orderId: string): Order | undefined {
    const ref = this.#orders.refById.get(orderId);
    return ref === undefined ? undefined : this.byClientOrderId(ref);
  }

  /**
   * The strategy that placed an order.
   * @param clientOrderId - the caller reference
   * @returns the strategy id; undefined for orders placed outside this tracker (adopted)
   */
  ownerOf(clientOrderId: string): string | undefined {
    const owner = this.#orders.entry(clientOrderId)?.strategyId;
    return owner === '' ? undefined : owner;
  }

  /**
   * Orders not in a final state.
   * @param strategyId - only this strategy's; omitted = all
   * @returns the orders, in first-seen order
   */
  openOrders(strategyId?: string): readonly Order[] {
    const open: Order[] = [];
    for (const entry of this.#orders.live.values()) {
      if (strategyId === undefined || entry.strategyId === strategyId) open.push(effectiveOrder(entry));
    }
    return open;
  }

  /**
   * The in-flight request of an order.
   * @param clientOrderId - the caller reference
   * @returns the request, or undefined when nothing is in flight
   */
  inFlight(clientOrderId: string): InFlightRequest | undefined {
    return this.#orders.inFlight.get(clientOrderId)?.pending;
  }

  /**
   * The earliest deadline of any in-flight request, so a scheduler can wake up exactly then.
   * @returns epoch ms, or undefined when nothing is in flight
   */
  nextDeadline(): number | undefined {
    return nextLookupDeadline(this.#orders.inFlight.values());
  }

  /**
   * Looks up, by caller reference, every order whose request is past its deadline, and folds
   * what the venue says. Nothing is ever re-sent. An order the venue never saw (a new order
   * whose lookup finds nothing) becomes REJECTED; a cancel whose order the venue no longer
   * knows becomes CANCELLED; a modification the venue does not confirm is dropped and the
   * order keeps the venue's word; a cancel the venue still shows open gets a new deadline,
   * up to `maxLookups` lookups.
   * @param port - where to look orders up
   * @param now - current time, epoch ms
   * @returns corrective order events to feed to the kernel, stamped `now`
   */
  async checkTimeouts(
    port: Pick<ExecutionPort, 'lookupOrder'>,
    now: number,
  ): Promise<readonly OrderUpdateEvent[]> {
    const due = [...this.#orders.inFlight.values()].filter(
      (entry) => entry.pending !== undefined && !entry.lookupRunning && entry.pending.deadline <= now,
    );
    const events: OrderUpdateEvent[] = [];
    for (const entry of due) entry.lookupRunning = true;
    for (const entry of due) {
      let found: Order | undefined;
      try {
        found = await port.lookupOrder(entry.order.sym, entry.ref);
      } finally {
        entry.lookupRunning = false;
      }
      const order = orderAfterLookup(this.#lookupRules, entry, found, now);
      if (order !== undefined) events.push({ kind: 'order', ts: now, recvTs: now, order });
    }
    return events;
  }

  /** Clears the in-flight request the venue's update completes. */
  #settle(entry: TrackedOrder, update: Order): void {
    const pending = entry.pending;
    if (pending === undefined) return;
    const done =
      isFinalOrderState(update.orderState) ||
      pending.kind === 'new' ||
      (pending.kind === 'replace' && update.action === 'AMEND_COMPLETED');
    if (done) {
      this.#orders.requests.delete(pending.requestRef);
      this.#orders.setPending(entry, undefined);
    }
  }

  #markPending(
    targets: readonly string[],
    kind: 'cancel' | 'replace',
    requestRef: string,
    now: number,
  ): Order[] {
    const changed: Order[] = [];
    for (const target of targets) {
      const entry = this.#orders.live.get(target);
      if (entry === undefined) continue;
      this.#orders.setPending(entry, this.#request(kind, requestRef, now));
      this.#orders.requests.set(requestRef, target);
      changed.push(effectiveOrder(entry));
    }
    return changed;
  }

  #request(kind: InFlightRequest['kind'], requestRef: string, now: number): InFlightRequest {
    return { kind, requestRef, sentAt: now, deadline: now + this.#timeoutMs, lookups: 0 };
  }
}
