import { isFinalOrderState, type Order } from '../../core/model/index.ts';
import { ORDER_CODEC, type OrderRecord, type RecordLog, type SpillDirectory } from '../report/index.ts';
import { CreationOrderJournal, type CreationOrderJournalOptions } from './creation-order-journal.ts';

/** An order held with its owner apart: an update then costs no copy of the order (Keel's choice). */
interface OwnedOrder {
  readonly order: Order;
  readonly owner: string | undefined;
}

/** The order as a result holds it: copied with its owner once, when it is written. */
function encodeOwned({ order, owner }: OwnedOrder): string {
  return ORDER_CODEC.encode(owner === undefined ? order : { ...order, strategyId: owner });
}

/**
 * Every order of a run in its final state, in creation order, without holding them (see
 * {@link CreationOrderJournal}): an order stays in memory while it is open, a finished one goes
 * to the run's spill files, and an update arriving after an order's final one replaces it.
 */
export class OrderJournal {
  private readonly journal: CreationOrderJournal<OwnedOrder, OrderRecord>;

  /**
   * @param dir - the run's spill directory
   * @param options - window and run sizes (small in tests, so setting orders aside and merging
   *   several runs are exercised)
   */
  constructor(dir: SpillDirectory, options: CreationOrderJournalOptions = {}) {
    this.journal = new CreationOrderJournal(dir, 'orders', encodeOwned, ORDER_CODEC, options);
  }

  /** Orders open now (held in memory). */
  get openCount(): number {
    return this.journal.openCount;
  }

  /** Finished orders written out of creation order so far (sorted in at the end). */
  get lateCount(): number {
    return this.journal.lateCount;
  }

  /**
   * The strategy recorded with an order still open, for an update whose owner is no longer known.
   * @param orderId - the venue's order id
   * @returns the strategy id, or undefined
   */
  ownerOf(orderId: string): string | undefined {
    return this.journal.current(orderId)?.owner;
  }

  /**
   * Takes an order update from the venue.
   * @param order - the order's latest state
   * @param owner - the strategy owning it, when known
   */
  update(order: Order, owner?: string): void {
    this.journal.update(order.orderId, { order, owner }, isFinalOrderState(order.orderState));
  }

  /**
   * Ends the run: writes the orders still open (in their last state) and returns every order.
   * @returns every order in its final state (or its last one for orders still open), in creation order
   */
  finish(): RecordLog<OrderRecord> {
    return this.journal.finish();
  }
}
