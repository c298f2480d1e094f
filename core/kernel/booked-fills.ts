import { RetentionQueue } from './retention-queue.ts';

const RECENT_FILLS = 100_000;

/**
 * The transactionIds of the most recent fills, so a fill delivered twice (reconnect, replay)
 * counts once. The last 100 000 are remembered (a duplicate arrives soon after the original),
 * so memory stays bounded in long runs.
 */
export class BookedFills {
  private readonly booked = new Set<string>();
  private readonly order = new RetentionQueue(RECENT_FILLS);

  /**
   * Books a fill's transactionId unless already booked.
   * @param transactionId - the execution's id
   * @returns true the first time, false for a duplicate
   */
  book(transactionId: string): boolean {
    // One hash look-up per fill, not a has then an add: a Set adding what it holds keeps its size.
    const before = this.booked.size;
    if (this.booked.add(transactionId).size === before) return false;
    const forgotten = this.order.push(transactionId);
    if (forgotten !== undefined) this.booked.delete(forgotten);
    return true;
  }
}
