import {
  isLoanRefusal,
  loanRefusalWarning,
  refusedLoanText,
  rejectedOrderText,
  rejectionWarning,
} from '../../backtest/runner/index.ts';
import type { CommandRejectedEvent, Order } from '../../core/model/index.ts';

/**
 * Counts the orders a live or paper session placed and those the venue rejected, keeping the
 * first rejection's reason: a session whose orders were all refused (a missing account id, a
 * sym the venue does not trade) otherwise ends with no fill and nothing said. Refused borrows and
 * repays are counted the same way.
 */
export class OrderRejections {
  private readonly placed = new Set<string>();
  private readonly rejected = new Set<string>();
  private firstReason: string | undefined;
  private loanRefusals = 0;
  private firstLoanRefusal: string | undefined;

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
   * Takes one refused command of the User Data stream; only borrow and repay refusals count.
   * @param event - the refusal
   */
  observeCommand(event: CommandRejectedEvent): void {
    if (!isLoanRefusal(event)) return;
    this.loanRefusals += 1;
    this.firstLoanRefusal ??= refusedLoanText(event);
  }

  /**
   * The session's warning about rejected orders, for its summary (⚠), result and report.
   * @returns a sentence counting the rejections with the first one's reason, or undefined when none was rejected
   */
  warning(): string | undefined {
    return rejectionWarning(this.rejected.size, this.placed.size, this.firstReason);
  }

  /**
   * The session's warning about refused borrows and repays, for its summary, result and report.
   * @returns a sentence counting the refusals with the first one's reason, or undefined when none was refused
   */
  loanWarning(): string | undefined {
    return loanRefusalWarning(this.loanRefusals, this.firstLoanRefusal);
  }
}
