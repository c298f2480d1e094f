import { rejectedOrderText, rejectionWarning } from '../../backtest/runner/index.ts';
import type { Order } from '../../core/model/index.ts';

/**
 * Counts the orders a live or paper session placed and those the venue rejected, keeping the
 * first rejection's reason: a session whose orders were all refused (a missing account id, a
 * sym the venue does not trade) otherwise ends with no fill and nothing said.
 */
export class OrderRejections {
  private readonly placed = new Set<string>();
  private readonly rejected = new Set<string>();
  private firstReason: string | undefined;

  /**
   * Takes one order update of the User Data stream.
   * @param order - the order as the venue (or the adapter refusing it) reported it
   */
  observe(order: Order): void {
    this.placed.add(order.clientOrderId);
    if (order.orderState !== 'REJECTED' || this.rejected.has(order.clientOrderId)) return;
    this.rejected.add(order.clientOrderId);
    this.firstReason ??= rejectedOrderText(order);
  }

  /**
   * The session's warning about rejected orders, for its summary (⚠), result and report.
   * @returns a sentence counting the rejections with the first one's reason, or undefined when none was rejected
   */
  warning(): string | undefined {
    return rejectionWarning(this.rejected.size, this.placed.size, this.firstReason);
  }
}
