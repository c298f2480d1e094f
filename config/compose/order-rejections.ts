import {
  isLoanRefusal,
  loanRefusalWarning,
  refusedLoanText,
  rejectedOrderText,
  rejectionWarning,
} from '../../backtest/runner/index.ts';
import type { CommandRejectedEvent, Order } from '../../core/model/index.ts';

/**
 * Counts the orders a live or paper session placed, those the venue rejected and those Keel
 * ended as rejected itself (code `keel`), keeping each kind's first reason: a session whose orders were all refused (a missing account id, a
 * sym the venue does not trade) otherwise ends with no fill and nothing said. Refused borrows and
 * repays are counted the same way. It holds counts only, no reference per order: the session's
 * journal tells it each order's previous state, so a long run's memory stays flat.
 */
export class OrderRejections {
  private placed = 0;
  private rejected = 0;
  private firstReason: string | undefined;
  /** Orders Keel ended as REJECTED itself (code `keel`: not sent, never acknowledged), counted apart from the venue's. */
  private keelEnded = 0;
  private firstKeelEnded: string | undefined;
  /** Of those, the ones the venue reported later after all (an ack slower than Keel's lookups). */
  private turnedUp = 0;
  private firstTurnedUp: string | undefined;
  private loanRefusals = 0;
  private firstLoanRefusal: string | undefined;

  /**
   * Counts the orders placed from now: those seen so far (the open orders the first reconciliation
   * found on the venue, before the strategies started) were placed before the session.
   */
  startTrading(): void {
    this.placed = 0;
  }

  /**
   * Takes one order update the session's journal took (a duplicate or stale one never reaches it).
   * @param order - the order as the venue (or the adapter refusing it) reported it
   * @param before - the order's state before this update, undefined when first seen
   * @returns true when this update rejected the order (once per order)
   */
  observe(order: Order, before: Order | undefined): boolean {
    if (before === undefined) this.placed += 1;
    if (before?.orderState === 'REJECTED' && before.synthesized === true && order.orderState !== 'REJECTED') {
      this.turnedUp += 1;
      this.firstTurnedUp ??= order.clientOrderId;
      return false;
    }
    if (order.orderState !== 'REJECTED' || before?.orderState === 'REJECTED') return false;
    if (order.synthesized === true) {
      this.keelEnded += 1;
      this.firstKeelEnded ??= rejectedOrderText(order);
    } else {
      this.rejected += 1;
      this.firstReason ??= rejectedOrderText(order);
    }
    return true;
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
    return rejectionWarning(this.rejected, this.placed, this.firstReason);
  }

  /**
   * The session's warning about the orders Keel ended as rejected itself, counted apart from the
   * venue's rejections (as `keel_orders_rejected_total{code="keel"}` is), and those of them the
   * venue reported later after all, which the result holds as the venue last reported them.
   * @returns a sentence counting them with the first one's reason, or undefined when there was none
   */
  keelWarning(): string | undefined {
    if (this.keelEnded === 0) return undefined;
    const ended = `Keel ended ${this.keelEnded} of the ${this.placed} orders placed as rejected itself (code keel: not sent, or never acknowledged), not the venue; the first: ${this.firstKeelEnded ?? 'not recorded'}`;
    if (this.turnedUp === 0) return ended;
    return `${ended}; ${this.turnedUp} of them reached the venue after all (the first: ${this.firstTurnedUp}): the result holds ${this.turnedUp === 1 ? 'it' : 'them'} as the venue last reported ${this.turnedUp === 1 ? 'it' : 'them'}`;
  }

  /**
   * The session's warning about refused borrows and repays, for its summary, result and report.
   * @returns a sentence counting the refusals with the first one's reason, or undefined when none was refused
   */
  loanWarning(): string | undefined {
    return loanRefusalWarning(this.loanRefusals, this.firstLoanRefusal);
  }
}
