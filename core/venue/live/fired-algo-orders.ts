import type { AlgoOrder, Order, UserEvent } from '../../model/index.ts';

/**
 * The algo orders the execution client reported open, by the venue's algoOrderId, so that the
 * order one sends when it fires ends it. The venue pushes no algo order updates (the spec has no
 * such User Data channel), but that order names it (`algoOrderId`, per public venue docs): without
 * this, a strategy's own algo order (and a tp / sl leg adopted at start-up) stayed open for the
 * kernel, and held the risk gate's open-algo limits, until a reconciliation, although a backtest
 * ends it at its trigger.
 */
export class FiredAlgoOrders {
  private readonly open = new Map<string, AlgoOrder>();

  /**
   * Takes an event the client passes on: an algo order is followed while open.
   * @param event - the event
   */
  observe(event: UserEvent): void {
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
    if (fired === undefined) return undefined;
    return {
      ...fired,
      state: order.orderState === 'REJECTED' ? 'FAILED' : 'TRIGGERED',
      orderId: order.orderId,
      updateAt: Math.max(fired.updateAt, order.createAt),
    };
  }
}
