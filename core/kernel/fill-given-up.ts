import { AWAITING_ALGO_CHILDREN_KEPT } from './algo-children-awaiting.ts';
import type { GivenUpCause } from './algo-children-given-up.ts';
import { FILL_AWAITING_ORDER_MS, type HeldFill } from './fills-awaiting-order.ts';

/**
 * A fill the kernel gave up waiting for its order's first update: that update did not come within
 * {@link FILL_AWAITING_ORDER_MS} (`timeout`), or {@link AWAITING_ALGO_CHILDREN_KEPT} newer such
 * fills pushed it out of the wait before (`capacity`), so no strategy was told of it.
 */
export interface FillGivenUp {
  /** Why it was given up. */
  readonly cause: GivenUpCause;
  /** The fill's venue id. */
  readonly transactionId: string;
  /** Its order's venue id. */
  readonly orderId: string;
  /** Its order's reference; '' when the venue gave none. */
  readonly clientOrderId: string;
  readonly sym: string;
  readonly side: string;
  /** Its quantity, as a decimal string. */
  readonly qty: string;
  /** Its price, as a decimal string. */
  readonly price: string;
  /** The run's time when it began to wait, epoch ms. */
  readonly heldAt: number;
  /** The run's time when it was given up, epoch ms. */
  readonly ts: number;
  /** The sentence a log says. */
  readonly reason: string;
}

/**
 * @param held - the fill given up and when it began to wait
 * @param ts - the run's time, epoch ms
 * @param cause - why it was given up
 * @returns the report of it
 */
export function fillGivenUp(held: HeldFill, ts: number, cause: GivenUpCause): FillGivenUp {
  const { execution } = held.event;
  const order =
    execution.clientOrderId === ''
      ? `order ${execution.orderId}`
      : `order ${execution.orderId} (${execution.clientOrderId})`;
  const why =
    cause === 'timeout'
      ? `whose first update did not come within ${FILL_AWAITING_ORDER_MS / 1000} s`
      : `whose first update had not come when ${AWAITING_ALGO_CHILDREN_KEPT} newer fills waiting for their orders pushed it out`;
  return {
    cause,
    transactionId: execution.transactionId,
    orderId: execution.orderId,
    clientOrderId: execution.clientOrderId,
    sym: execution.sym,
    side: execution.side,
    qty: execution.quantity.toFixed(),
    price: execution.price.toFixed(),
    heldAt: held.heldAt,
    ts,
    reason:
      `fill ${execution.transactionId} of ${order} on ${execution.sym} (${execution.side} ` +
      `${execution.quantity.toFixed()} at ${execution.price.toFixed()}) came before its order, ${why}: no strategy was told of it`,
  };
}
