import { LiquidationJournal } from '../../backtest/report/index.ts';
import { isNewerOrderUpdate } from '../../core/execution/index.ts';
import { BookedFills } from '../../core/kernel/index.ts';
import type { Execution, Order, UserEvent } from '../../core/model/index.ts';
import { OrderRejections } from './order-rejections.ts';
import type { RunMetrics } from './run-metrics.ts';

/**
 * What a live or paper session keeps of the venue's User Data stream for its result: the fills,
 * the latest state of every order, the rejections and the liquidations; fills and acks are also
 * counted in the session's metrics. A fill the venue pushed twice (a duplicate push, a replay
 * after a reconnect) counts once, by transactionId, with the kernel's own {@link BookedFills}; an order update goes
 * through the order state machine, so a stale or duplicate one never overwrites a newer state.
 */
export class UserDataJournal {
  /** Every fill, in arrival order. */
  readonly fills: Execution[] = [];
  /** Orders placed and refused, for the session's warnings. */
  readonly rejections = new OrderRejections();
  /** Liquidation events and positions, for the result. */
  readonly liquidations = new LiquidationJournal();
  private readonly orders = new Map<string, Order>();
  private readonly bookedFills = new BookedFills();

  /**
   * @param metrics - the session's metrics (fills, acknowledged orders)
   * @param onFill - called on every fill (e.g. to print it)
   */
  constructor(
    private readonly metrics: RunMetrics,
    private readonly onFill: ((fill: Execution) => void) | undefined,
  ) {}

  /**
   * Takes one User Data event.
   * @param event - the event as the execution client emitted it
   */
  observe(event: UserEvent): void {
    if (event.kind === 'execution') {
      if (!this.bookedFills.book(event.execution.transactionId)) return;
      this.fills.push(event.execution);
      this.metrics.fills.inc();
      this.onFill?.(event.execution);
    } else if (event.kind === 'order') {
      // By reference: the adapter's own REJECTED of an order carries no orderId, the venue's does.
      const key = event.order.clientOrderId || event.order.orderId;
      const known = this.orders.get(key);
      if (known === undefined || isNewerOrderUpdate(known, event.order)) this.orders.set(key, event.order);
      this.rejections.observe(event.order);
      if (event.order.orderState !== 'REJECTED') this.metrics.acknowledged(event.order.clientOrderId);
    } else if (event.kind === 'liquidationEvent' || event.kind === 'liquidationPosition') {
      this.liquidations.observe(event);
    } else if (event.kind === 'commandRejected') {
      this.rejections.observeCommand(event);
    }
  }

  /** The latest state of every order, in first-seen order. @returns the orders */
  orderList(): Order[] {
    return [...this.orders.values()];
  }

  /** Orders the venue still holds open, by the session's own record (the kernel has stopped listening). @returns how many */
  openOrderCount(): number {
    let open = 0;
    for (const order of this.orders.values())
      if (['NEW', 'OPEN', 'PARTIALLY_FILLED'].includes(order.orderState)) open++;
    return open;
  }
}
