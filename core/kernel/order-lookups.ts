import type { ExecutionPort } from '../execution/index.ts';
import type { KeelEvent, Order } from '../model/index.ts';

/** Where a look-up's answer goes. */
export interface LookupSinks {
  /** The run's time, epoch ms: the answer's event time. */
  readonly now: () => number;
  /** Hands the venue's word to the kernel as an order update. */
  readonly push: (event: KeelEvent) => void;
}

/**
 * Looks up, by caller reference (by orderId for one placed without), orders whose modify or
 * cancel got no answer (it may have happened anyway); the venue's word comes back as an order update like any other, so the order
 * state machine decides whether it is news. An order the venue does not know stays as it is, and
 * so does one whose look-up fails (the connection is usually down then): the venue adapter's
 * reconciliation after it logs in again looks up every order it no longer lists. A failed
 * look-up is not a strategy fault, so it does not change the run's exit code.
 * @param execution - where the look-ups go
 * @param orders - the orders to look up
 * @param sinks - the run's clock and the kernel's input
 */
export function lookUpOrders(
  execution: Pick<ExecutionPort, 'lookupOrder'>,
  orders: readonly Order[],
  sinks: LookupSinks,
): void {
  for (const order of orders) {
    execution.lookupOrder(order.sym, order.clientOrderId, order.orderId).then((found) => {
      if (found === undefined) return;
      const now = sinks.now();
      sinks.push({ kind: 'order', ts: now, recvTs: now, order: found });
    }, ignoreFailedLookup);
  }
}

/** A failed look-up leaves the order at the venue's last word (see {@link lookUpOrders}). */
function ignoreFailedLookup(): void {}
