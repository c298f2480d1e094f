import type { Order, OrderState, OrderUpdateEvent } from '../model/index.ts';
import { isFinalOrderState } from '../model/index.ts';
import type { ApprovedIntent } from '../risk/index.ts';
import type { ExecutionPort } from './execution-port.ts';
import { orderFromPlaceIntent } from './order-from-place-intent.ts';
import { isNewerOrderUpdate } from './order-state-machine.ts';

/** A request the venue has not confirmed yet. */
export interface InFlightRequest {
  readonly kind: 'new' | 'cancel' | 'replace';
  /** The ref of the intent that sent the request (for a new order, its clientOrderId). */
  readonly requestRef: string;
  readonly sentAt: number;
  /** When to look the order up if the venue has still not answered. */
  readonly deadline: number;
  /** Lookups done so far for this request. */
  readonly lookups: number;
}

const IN_FLIGHT_STATE: Readonly<Record<InFlightRequest['kind'], OrderState>> = {
  new: 'PENDING_NEW',
  cancel: 'PENDING_CANCEL',
  replace: 'PENDING_REPLACE',
};

interface Entry {
  /** The clientOrderId the entry is filed under. */
  readonly ref: string;
  readonly strategyId: string;
  /** The latest word of the venue, or Keel's placeholder before the first one. */
  order: Order;
  fromVenue: boolean;
  pending: InFlightRequest | undefined;
  lookupRunning: boolean;
}

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
  readonly #retainFinal: number;
  /** Orders not in a final state, by clientOrderId, in first-seen order. */
  readonly #live = new Map<string, Entry>();
  /** Entries with a request in flight (a subset of the live ones), by clientOrderId. */
  readonly #inFlight = new Map<string, Entry>();
  /** The most recent final orders, oldest first (Map insertion order), bounded by retainFinal. */
  readonly #final = new Map<string, Entry>();
  readonly #refById = new Map<string, string>();
  /** Request ref (cancel or modify intent) -> clientOrderId it acts on. */
  readonly #requests = new Map<string, string>();

  /**
   * @param options - ack timeout, lookup count and placeholder portfolioId
   */
  constructor(options: OrderTrackerOptions = {}) {
    this.#timeoutMs = options.ackTimeoutMs ?? 5000;
    this.#maxLookups = options.maxLookups ?? 3;
    this.#portfolioId = options.portfolioId ?? '';
    this.#retainFinal = options.retainFinal ?? 10_000;
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
        const entry: Entry = {
          ref: intent.ref,
          strategyId,
          order,
          fromVenue: false,
          pending: undefined,
          lookupRunning: false,
        };
        this.#file(entry);
        this.#setPending(entry, this.#request('new', intent.ref, now));
        return [this.#effective(entry)];
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
    const ref = this.#refById.get(update.orderId) ?? update.clientOrderId;
    let entry = this.#entry(ref);
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
    if (update.orderId !== '') this.#refById.set(update.orderId, ref);
    this.#settle(entry, update);
    this.#file(entry);
    return this.#effective(entry);
  }

  /**
   * The venue refused a request that is not itself an order update (e.g. a cancel of an order
   * already final): the order leaves its in-flight state and keeps the venue's last word.
   * @param requestRef - the ref of the refused intent
   * @returns the order as it should now be seen, or undefined when the ref is not a pending request
   */
  onRequestRejected(requestRef: string): Order | undefined {
    const ref = this.#requests.get(requestRef) ?? requestRef;
    const entry = this.#inFlight.get(ref);
    if (entry?.pending === undefined || entry.pending.requestRef !== requestRef) return undefined;
    this.#requests.delete(requestRef);
    if (entry.pending.kind === 'new') {
      entry.order = { ...entry.order, orderState: 'REJECTED', reason: 'the venue refused the request' };
    }
    this.#setPending(entry, undefined);
    this.#file(entry);
    return this.#effective(entry);
  }

  /**
   * An order by its caller reference.
   * @param clientOrderId - the caller reference
   * @returns the order as the strategy should see it (in-flight state included)
   */
  byClientOrderId(clientOrderId: string): Order | undefined {
    const entry = this.#entry(clientOrderId);
    return entry === undefined ? undefined : this.#effective(entry);
  }

  /**
   * An order by the venue's id.
   * @param orderId - the venue's order id
   * @returns the order, or undefined when the venue never numbered it for us
   */
  byOrderId(orderId: string): Order | undefined {
    const ref = this.#refById.get(orderId);
    return ref === undefined ? undefined : this.byClientOrderId(ref);
  }

  /**
   * The strategy that placed an order.
   * @param clientOrderId - the caller reference
   * @returns the strategy id; undefined for orders placed outside this tracker (adopted)
   */
  ownerOf(clientOrderId: string): string | undefined {
    const owner = this.#entry(clientOrderId)?.strategyId;
    return owner === '' ? undefined : owner;
  }

  /**
   * Orders not in a final state.
   * @param strategyId - only this strategy's; omitted = all
   * @returns the orders, in first-seen order
   */
  openOrders(strategyId?: string): readonly Order[] {
    const open: Order[] = [];
    for (const entry of this.#live.values()) {
      if (strategyId === undefined || entry.strategyId === strategyId) open.push(this.#effective(entry));
    }
    return open;
  }

  /**
   * The in-flight request of an order.
   * @param clientOrderId - the caller reference
   * @returns the request, or undefined when nothing is in flight
   */
  inFlight(clientOrderId: string): InFlightRequest | undefined {
    return this.#inFlight.get(clientOrderId)?.pending;
  }

  /**
   * The earliest deadline of any in-flight request, so a scheduler can wake up exactly then.
   * @returns epoch ms, or undefined when nothing is in flight
   */
  nextDeadline(): number | undefined {
    let next: number | undefined;
    for (const entry of this.#inFlight.values()) {
      if (
        entry.pending !== undefined &&
        !entry.lookupRunning &&
        (next === undefined || entry.pending.deadline < next)
      ) {
        next = entry.pending.deadline;
      }
    }
    return next;
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
    const due = [...this.#inFlight.values()].filter(
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
      const order = this.#afterLookup(entry, found, now);
      if (order !== undefined) events.push({ kind: 'order', ts: now, recvTs: now, order });
    }
    return events;
  }

  #afterLookup(entry: Entry, found: Order | undefined, now: number): Order | undefined {
    const pending = entry.pending;
    if (pending === undefined) return undefined;
    if (found !== undefined) {
      const changed = this.onOrderUpdate(found);
      if (entry.pending === undefined) return changed;
      if (pending.kind === 'cancel' && pending.lookups + 1 < this.#maxLookups) {
        entry.pending = { ...pending, deadline: now + this.#timeoutMs, lookups: pending.lookups + 1 };
        return changed;
      }
      // The venue's answer stands: the amendment (or, after maxLookups, the cancel) did not happen.
      this.#requests.delete(pending.requestRef);
      this.#setPending(entry, undefined);
      return this.#effective(entry);
    }
    this.#requests.delete(pending.requestRef);
    this.#setPending(entry, undefined);
    if (pending.kind === 'replace') return this.#effective(entry);
    const orderState: OrderState = pending.kind === 'new' ? 'REJECTED' : 'CANCELLED';
    const reason =
      pending.kind === 'new'
        ? `no answer within ${this.#timeoutMs} ms and the venue does not know the order: it never arrived`
        : `cancel unanswered within ${this.#timeoutMs} ms and the venue no longer knows the order`;
    entry.order = { ...entry.order, orderState, reason, updateAt: now };
    this.#file(entry);
    return entry.order;
  }

  /** Clears the in-flight request the venue's update completes. */
  #settle(entry: Entry, update: Order): void {
    const pending = entry.pending;
    if (pending === undefined) return;
    const done =
      isFinalOrderState(update.orderState) ||
      pending.kind === 'new' ||
      (pending.kind === 'replace' && update.action === 'AMEND_COMPLETED');
    if (done) {
      this.#requests.delete(pending.requestRef);
      this.#setPending(entry, undefined);
    }
  }

  /** The entry of a clientOrderId, live or final. */
  #entry(ref: string): Entry | undefined {
    return this.#live.get(ref) ?? this.#final.get(ref);
  }

  /**
   * Files an entry with the live or the final orders, by its order's state, and forgets the
   * oldest final orders beyond `retainFinal`.
   */
  #file(entry: Entry): void {
    if (!isFinalOrderState(entry.order.orderState)) {
      this.#final.delete(entry.ref);
      this.#live.set(entry.ref, entry);
      return;
    }
    this.#live.delete(entry.ref);
    this.#setPending(entry, undefined);
    this.#final.set(entry.ref, entry);
    while (this.#final.size > this.#retainFinal) {
      const oldest = this.#final.values().next().value as Entry;
      this.#final.delete(oldest.ref);
      if (this.#refById.get(oldest.order.orderId) === oldest.ref) this.#refById.delete(oldest.order.orderId);
    }
  }

  #setPending(entry: Entry, pending: InFlightRequest | undefined): void {
    entry.pending = pending;
    if (pending === undefined) this.#inFlight.delete(entry.ref);
    else this.#inFlight.set(entry.ref, entry);
  }

  #markPending(
    targets: readonly string[],
    kind: 'cancel' | 'replace',
    requestRef: string,
    now: number,
  ): Order[] {
    const changed: Order[] = [];
    for (const target of targets) {
      const entry = this.#live.get(target);
      if (entry === undefined) continue;
      this.#setPending(entry, this.#request(kind, requestRef, now));
      this.#requests.set(requestRef, target);
      changed.push(this.#effective(entry));
    }
    return changed;
  }

  #request(kind: InFlightRequest['kind'], requestRef: string, now: number): InFlightRequest {
    return { kind, requestRef, sentAt: now, deadline: now + this.#timeoutMs, lookups: 0 };
  }

  #effective(entry: Entry): Order {
    if (entry.pending === undefined || isFinalOrderState(entry.order.orderState)) return entry.order;
    return { ...entry.order, orderState: IN_FLIGHT_STATE[entry.pending.kind] };
  }
}
