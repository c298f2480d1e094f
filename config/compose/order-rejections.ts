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
    this.firstReason ??= `${order.sym} ${order.side} ${order.clientOrderId}: ${order.reason ?? 'no reason given'}`;
  }

  /**
   * The session's warning about rejected orders, for its summary (⚠), result and report.
   * @returns a sentence counting the rejections with the first one's reason, or undefined when none was rejected
   */
  warning(): string | undefined {
    const rejected = this.rejected.size;
    if (rejected === 0) return undefined;
    const placed = this.placed.size;
    const first = `the first: ${this.firstReason}`;
    if (rejected === placed)
      return `the venue rejected every order placed (${rejected} of ${placed}), so nothing could fill; ${first}`;
    return `the venue rejected ${rejected} of the ${placed} orders placed; ${first}`;
  }
}
