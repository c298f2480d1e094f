import { isFinalOrderState, type Order } from '../../core/model/index.ts';
import {
  ORDER_CODEC,
  type OrderRecord,
  ownedRecordLine,
  type RecordLog,
  type SpillDirectory,
} from '../report/index.ts';
import { CreationOrderJournal, type CreationOrderJournalOptions } from './creation-order-journal.ts';

/** An order held with its owner apart: an update then costs no copy of the order (Keel's choice). */
interface OwnedOrder {
  readonly order: Order;
  readonly owner: string | undefined;
}

/** The order as a result holds it: written with its owner, never copied with it. */
function encodeOwned({ order, owner }: OwnedOrder): string {
  return owner === undefined ? ORDER_CODEC.encode(order) : ownedRecordLine(order, owner);
}

const byOrderId = (order: Order): string => order.orderId;

/** Sizes of an {@link OrderJournal}, and which updates are one order. */
export interface OrderJournalOptions extends CreationOrderJournalOptions {
  /**
   * The key of the order an update belongs to (default: the venue's orderId). A session keys by
   * clientOrderId first: the adapter reports an order it refused itself without an orderId.
   */
  readonly keyOf?: (order: Order) => string;
}

/**
 * Every order of a run in its final state, in creation order, without holding them (see
 * {@link CreationOrderJournal}): an order stays in memory while it is open, a finished one goes
 * to the run's spill files, and an update arriving after an order's final one replaces it. A
 * final state Keel synthesized (`Order.synthesized`) keeps the order held: the venue's later
 * word on it may still replace it.
 */
export class OrderJournal {
  private readonly journal: CreationOrderJournal<OwnedOrder, OrderRecord>;
  private readonly keyOf: (order: Order) => string;

  /**
   * @param dir - the run's spill directory
   * @param options - window and run sizes (small in tests, so setting orders aside and merging
   *   several runs are exercised), and the key of an update
   */
  constructor(dir: SpillDirectory, options: OrderJournalOptions = {}) {
    this.keyOf = options.keyOf ?? byOrderId;
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
   * @param key - the order's key (the venue's order id unless {@link OrderJournalOptions.keyOf} says otherwise)
   * @returns the strategy id, or undefined
   */
  ownerOf(key: string): string | undefined {
    return this.journal.current(key)?.owner;
  }

  /**
   * @param key - an order's key (see {@link OrderJournalOptions.keyOf})
   * @returns its latest state while it is held (open), else undefined
   */
  current(key: string): Order | undefined {
    return this.journal.current(key)?.order;
  }

  /**
   * @param key - an order's key
   * @returns whether it finished among the last 4096 orders that did (no longer held)
   */
  finishedRecently(key: string): boolean {
    return this.journal.finishedRecently(key);
  }

  /** @returns the orders held now (open, or ended by a state Keel synthesized), in their latest state */
  *openOrders(): Generator<Order> {
    for (const held of this.journal.openRecords()) yield held.order;
  }

  /**
   * Takes an order update from the venue.
   * @param order - the order's latest state
   * @param owner - the strategy owning it, when known
   * @returns the key the order is held under
   */
  update(order: Order, owner?: string): string {
    const key = this.keyOf(order);
    const final = isFinalOrderState(order.orderState) && order.synthesized !== true;
    this.journal.update(key, { order, owner }, final);
    return key;
  }

  /**
   * Ends the run: writes the orders still open (in their last state) and returns every order.
   * @returns every order in its final state (or its last one for orders still open), in creation order
   */
  finish(): RecordLog<OrderRecord> {
    return this.journal.finish();
  }
}
