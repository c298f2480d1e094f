/**
 * Keeps the reads of the venue's loans in the order they were asked for: each is numbered as it is
 * sent, and its result is applied only when no read sent after it has been applied yet. Every loan
 * read is sent after what it is meant to see (a borrow's or repay's reply, a liquidation's push, a
 * lost reply), so a read sent later sees all an earlier one was meant to see: dropping the earlier
 * one's late result loses nothing, while applying it would put a listing served before the later
 * read's over it (a borrow just read back reported paid off, say). The reads run side by side;
 * only their results are ordered.
 */
export class LoanReadOrder {
  private sent = 0;
  private applied = 0;

  /** @returns the number of a read about to be sent: greater than every one before */
  send(): number {
    this.sent++;
    return this.sent;
  }

  /**
   * Whether a read's result may be applied now; when it may, it is noted as the last applied.
   * @param read - the number {@link LoanReadOrder.send} gave the read
   * @returns false when a read sent after it (or it) was already applied
   */
  admit(read: number): boolean {
    if (read <= this.applied) return false;
    this.applied = read;
    return true;
  }
}
