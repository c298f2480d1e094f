import type { Order, OrderState } from '../model/index.ts';
import { effectiveOrder, type TrackedOrder, type TrackedOrders } from './tracked-orders.ts';

/** What deciding on a lookup's answer needs from the order tracker. */
export interface LookupRules {
  readonly orders: TrackedOrders;
  /** How long a request may wait for the venue, ms. */
  readonly timeoutMs: number;
  /** Lookups of an unconfirmed cancel before the venue's state is shown again. */
  readonly maxLookups: number;
  /** Folds a venue order update (the tracker's own `onOrderUpdate`). */
  readonly onOrderUpdate: (update: Order) => Order | undefined;
}

/**
 * The earliest deadline of any in-flight request whose lookup is not already running.
 * @param inFlight - the entries with a request in flight
 * @returns epoch ms, or undefined when nothing is in flight
 */
export function nextLookupDeadline(inFlight: Iterable<TrackedOrder>): number | undefined {
  let next: number | undefined;
  for (const entry of inFlight) {
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
 * Folds what a lookup of an order with an unanswered request found: an order the venue never saw
 * (a new order whose lookup finds nothing) becomes REJECTED; a cancel whose order the venue no
 * longer knows becomes CANCELLED; a modification the venue does not confirm is dropped and the
 * order keeps the venue's word; a cancel the venue still shows open gets a new deadline, up to
 * `maxLookups` lookups.
 * @param rules - the tracker's books, timeout, lookup count and update fold
 * @param entry - the order looked up
 * @param found - what the venue said, undefined when it does not know the order
 * @param now - current time, epoch ms
 * @returns the order as it should now be seen, or undefined when nothing changed
 */
export function orderAfterLookup(
  rules: LookupRules,
  entry: TrackedOrder,
  found: Order | undefined,
  now: number,
): Order | undefined {
  const { orders, timeoutMs } = rules;
  const pending = entry.pending;
  if (pending === undefined) return undefined;
  if (found !== undefined) {
    const changed = rules.onOrderUpdate(found);
    if (entry.pending === undefined) return changed;
    if (pending.kind === 'cancel' && pending.lookups + 1 < rules.maxLookups) {
      entry.pending = { ...pending, deadline: now + timeoutMs, lookups: pending.lookups + 1 };
      return changed;
    }
    // The venue's answer stands: the amendment (or, after maxLookups, the cancel) did not happen.
    orders.requests.delete(pending.requestRef);
    orders.setPending(entry, undefined);
    return effectiveOrder(entry);
  }
  orders.requests.delete(pending.requestRef);
  orders.setPending(entry, undefined);
  if (pending.kind === 'replace') return effectiveOrder(entry);
  const orderState: OrderState = pending.kind === 'new' ? 'REJECTED' : 'CANCELLED';
  const reason =
    pending.kind === 'new'
      ? `no answer within ${timeoutMs} ms and the venue does not know the order: it never arrived`
      : `cancel unanswered within ${timeoutMs} ms and the venue no longer knows the order`;
  entry.order = { ...entry.order, orderState, reason, updateAt: now };
  orders.file(entry);
  return entry.order;
}
