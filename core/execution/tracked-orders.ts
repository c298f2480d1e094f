import type { Order, OrderState } from '../model/index.ts';
import { isFinalOrderState } from '../model/index.ts';

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

/** One order the tracker holds: the venue's latest word and the request in flight, if any. */
export interface TrackedOrder {
  /** The clientOrderId the entry is filed under. */
  readonly ref: string;
  readonly strategyId: string;
  /** The latest word of the venue, or Keel's placeholder before the first one. */
  order: Order;
  fromVenue: boolean;
  pending: InFlightRequest | undefined;
  lookupRunning: boolean;
}

/**
 * The order tracker's books: live orders, in-flight requests and final orders kept apart, so
 * listing open orders costs in proportion to the open orders, finding deadlines to the requests
 * in flight, and only the last `retainFinal` final orders are remembered.
 */
export class TrackedOrders {
  /** Orders not in a final state, by clientOrderId, in first-seen order. */
  readonly live = new Map<string, TrackedOrder>();
  /** Entries with a request in flight (a subset of the live ones), by clientOrderId. */
  readonly inFlight = new Map<string, TrackedOrder>();
  /** The most recent final orders, oldest first (Map insertion order), bounded by retainFinal. */
  readonly #final = new Map<string, TrackedOrder>();
  /** The venue's orderId -> clientOrderId. */
  readonly refById = new Map<string, string>();
  /** Request ref (cancel or modify intent) -> clientOrderId it acts on. */
  readonly requests = new Map<string, string>();

  /** @param retainFinal - final orders remembered before the oldest is forgotten */
  constructor(private readonly retainFinal: number) {}

  /**
   * The entry of a clientOrderId, live or final.
   * @param ref - the clientOrderId
   * @returns the entry, or undefined when unknown or forgotten
   */
  entry(ref: string): TrackedOrder | undefined {
    return this.live.get(ref) ?? this.#final.get(ref);
  }

  /**
   * Files an entry with the live or the final orders, by its order's state, and forgets the
   * oldest final orders beyond `retainFinal`.
   * @param entry - the entry, its order up to date
   */
  file(entry: TrackedOrder): void {
    if (!isFinalOrderState(entry.order.orderState)) {
      this.#final.delete(entry.ref);
      this.live.set(entry.ref, entry);
      return;
    }
    this.live.delete(entry.ref);
    this.setPending(entry, undefined);
    this.#final.set(entry.ref, entry);
    while (this.#final.size > this.retainFinal) {
      const oldest = this.#final.values().next().value as TrackedOrder;
      this.#final.delete(oldest.ref);
      if (this.refById.get(oldest.order.orderId) === oldest.ref) this.refById.delete(oldest.order.orderId);
    }
  }

  /**
   * Sets or clears an entry's in-flight request, keeping the in-flight index in step.
   * @param entry - the entry
   * @param pending - the request, or undefined to clear it
   */
  setPending(entry: TrackedOrder, pending: InFlightRequest | undefined): void {
    entry.pending = pending;
    if (pending === undefined) this.inFlight.delete(entry.ref);
    else this.inFlight.set(entry.ref, entry);
  }
}

/**
 * An order as the strategy should see it: its in-flight state while a request is pending and the
 * order is not final, else the venue's word.
 * @param entry - the tracked order
 * @returns the order
 */
export function effectiveOrder(entry: TrackedOrder): Order {
  if (entry.pending === undefined || isFinalOrderState(entry.order.orderState)) return entry.order;
  return { ...entry.order, orderState: IN_FLIGHT_STATE[entry.pending.kind] };
}
