import type { Order } from '../model/index.ts';
import {
  AWAITING_ALGO_CHILD_MS,
  AWAITING_ALGO_CHILDREN_KEPT,
  type AwaitingAlgoChild,
} from './algo-children-awaiting.ts';

/**
 * Why the kernel gave up an order waiting for its algo order: `timeout`, it waited
 * {@link AWAITING_ALGO_CHILD_MS}; `capacity`, {@link AWAITING_ALGO_CHILDREN_KEPT} newer ones
 * pushed it out before; `backlog`, {@link AWAITING_ALGO_CHILDREN_KEPT} newer updates and fills
 * held for such orders pushed out the oldest held for it before. A fill waiting for its order is
 * given up only after the wait or pushed out (`timeout`, `capacity`).
 */
export type GivenUpCause = 'timeout' | 'capacity' | 'backlog';

/**
 * An order the kernel gave up waiting for the algo order it names: that algo order was not
 * reported within {@link AWAITING_ALGO_CHILD_MS} (placed by hand on the venue, or its report was
 * lost), or {@link AWAITING_ALGO_CHILDREN_KEPT} newer such orders, or newer updates and fills held
 * for them, pushed it out of the wait before, so no strategy was told of the order, nor of the updates and fills held for it.
 */
export interface AlgoChildGivenUp {
  /** Why it was given up. */
  readonly cause: GivenUpCause;
  /** The order's reference; '' when the venue gave none. */
  readonly clientOrderId: string;
  /** The order's venue id. */
  readonly orderId: string;
  readonly sym: string;
  /** The algo order it names, which the kernel never heard of. */
  readonly algoOrderId: string;
  /** The run's time when it began to wait, epoch ms. */
  readonly heldAt: number;
  /** How many of its updates and fills were held for it and reached no strategy. */
  readonly dropped: number;
  /** The run's time when it was given up, epoch ms. */
  readonly ts: number;
  /** The sentence a log says. */
  readonly reason: string;
}

/** Why an order was given up, as its report's sentence says it. */
const WHY: Record<GivenUpCause, string> = {
  timeout: `which the venue did not report within ${AWAITING_ALGO_CHILD_MS / 1000} s`,
  capacity: `which the venue had not reported when ${AWAITING_ALGO_CHILDREN_KEPT} newer orders waiting for their algo orders pushed it out`,
  backlog: `which the venue had not reported when ${AWAITING_ALGO_CHILDREN_KEPT} newer updates and fills held for orders waiting for their algo orders pushed out the oldest held for it`,
};

/**
 * @param child - the order given up
 * @param order - its latest state in the registry, when still there
 * @param dropped - how many of its held updates and fills reached no strategy
 * @param ts - the run's time, epoch ms
 * @param cause - why it was given up
 * @returns the report of it
 */
export function algoChildGivenUp(
  child: AwaitingAlgoChild,
  order: Order | undefined,
  dropped: number,
  ts: number,
  cause: GivenUpCause,
): AlgoChildGivenUp {
  const clientOrderId = order?.clientOrderId ?? '';
  const orderId = order?.orderId ?? '';
  const sym = order?.sym ?? '';
  const named = clientOrderId === '' ? `order ${orderId}` : `order ${orderId} (${clientOrderId})`;
  const why = WHY[cause];
  return {
    cause,
    clientOrderId,
    orderId,
    sym,
    algoOrderId: child.algoOrderId,
    heldAt: child.heldAt,
    dropped,
    ts,
    reason:
      `${named} on ${sym} names algo order ${child.algoOrderId}, ${why}: ` +
      `no strategy was told of it (${dropped} update(s) and fill(s) held for it dropped)`,
  };
}
