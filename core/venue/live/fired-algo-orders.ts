import type { AlgoOrder, Order, UserEvent } from '../../model/index.ts';

/**
 * How many orders naming an algo order not reported open are remembered (see
 * {@link FiredAlgoOrders.firedBefore}). Keel's choice: the place reply of an algo order whose
 * trigger was met at once trails its order's push by a round trip, so only the last few such
 * orders matter; a thousand bounds the memory of a session whose hand-placed algo orders (never
 * reported) fire all day.
 */
export const EARLY_FIRED_ORDERS_KEPT = 1_000;

/**
 * The algo orders the execution client reported open, by the venue's algoOrderId, so that the
 * order one sends when it fires ends it. The venue pushes no algo order updates (the spec has no
 * such User Data channel), but that order names it (`algoOrderId`, per public venue docs): without
 * this, a strategy's own algo order (and a tp / sl leg adopted at start-up) stayed open for the
 * kernel, and held the risk gate's open-algo limits, until a reconciliation, although a backtest
 * ends it at its trigger. An order naming an algo order not reported open is remembered too
 * (the last {@link EARLY_FIRED_ORDERS_KEPT}): a stop whose trigger is met at once fires before
 * its REST place reply arrives (the private socket is the faster path), and that reply, NEW, must
 * not leave it open for ever.
 */
export class FiredAlgoOrders {
  private readonly open = new Map<string, AlgoOrder>();
  /** Orders naming an algo order not reported open, by its algoOrderId, oldest first. */
  private readonly early = new Map<string, Order>();

  /** @param earlyKept - how many orders naming an algo order not reported open are remembered */
  constructor(private readonly earlyKept = EARLY_FIRED_ORDERS_KEPT) {}

  /**
   * Takes an event the client passes on: an algo order is followed while open; an order naming
   * an algo order not open is remembered.
   * @param event - the event
   */
  observe(event: UserEvent): void {
    if (event.kind === 'order') {
      const { algoOrderId } = event.order;
      if (algoOrderId !== undefined && algoOrderId !== '' && !this.open.has(algoOrderId))
        this.remember(algoOrderId, event.order);
      return;
    }
    if (event.kind !== 'algoOrder' || event.algoOrder.algoOrderId === '') return;
    const { algoOrder } = event;
    if (algoOrder.state === 'NEW') this.open.set(algoOrder.algoOrderId, algoOrder);
    else this.open.delete(algoOrder.algoOrderId);
  }

  /**
   * The end an order shows of the open algo order it names, as a backtest's venue reports it
   * before that order (Keel's choice where the venue says nothing): TRIGGERED with the order it
   * sent, at that order's creation; FAILED when that order was refused outright (the sim's child
   * refused for margin).
   * @param order - an order the venue reported
   * @returns the algo order in its end state, or undefined when the order names no open one
   */
  endedBy(order: Order): AlgoOrder | undefined {
    const fired = order.algoOrderId === undefined ? undefined : this.open.get(order.algoOrderId);
    return fired === undefined ? undefined : ended(fired, order);
  }

  /**
   * The end of an algo order just reported open (NEW) whose order was reported before it (see
   * {@link FiredAlgoOrders.endedBy}): to be reported right after it.
   * @param algoOrder - an algo order the client just passed on
   * @returns the algo order in its end state, or undefined when no order named it
   */
  firedBefore(algoOrder: AlgoOrder): AlgoOrder | undefined {
    if (algoOrder.state !== 'NEW') return undefined;
    const order = this.early.get(algoOrder.algoOrderId);
    return order === undefined ? undefined : ended(algoOrder, order);
  }

  private remember(algoOrderId: string, order: Order): void {
    this.early.delete(algoOrderId);
    this.early.set(algoOrderId, order);
    if (this.early.size <= this.earlyKept) return;
    const oldest = this.early.keys().next();
    if (oldest.done !== true) this.early.delete(oldest.value);
  }
}

function ended(fired: AlgoOrder, order: Order): AlgoOrder {
  return {
    ...fired,
    state: order.orderState === 'REJECTED' ? 'FAILED' : 'TRIGGERED',
    orderId: order.orderId,
    updateAt: Math.max(fired.updateAt, order.createAt),
  };
}
