import { orderKey } from '../../core/kernel/index.ts';
import type { ExecutionEvent, OrderUpdateEvent } from '../../core/model/index.ts';

/**
 * How long (venue time, ms) the journal holds the updates and fills of an order naming an algo
 * order it has not seen, waiting for that algo order's report. Keel's choice: the place reply of
 * an algo order whose trigger was met at once trails the order it sent by a round trip, far less;
 * an algo order placed by hand on the venue is never reported, and its orders' records must not
 * wait long for it.
 */
export const EARLY_ALGO_CHILDREN_WAIT_MS = 10_000;

/** How many algo orders' venue ids the journal remembers having seen (Keel's choice). */
const SEEN_ALGO_ORDERS_KEPT = 10_000;

/** An order update or fill held, with the algo order its order names. */
interface Held {
  readonly algoOrderId: string;
  readonly event: OrderUpdateEvent | ExecutionEvent;
}

/**
 * The updates and fills a session's journal holds back because their order, owned by no strategy
 * yet, names an algo order the journal has not seen (`algoOrderId`): a stop whose trigger is met
 * at once fires before its place reply arrives, and its strategy is known only from that reply.
 * They are recorded once the algo order is reported, with its strategy, in the order they came;
 * or as they are after {@link EARLY_ALGO_CHILDREN_WAIT_MS}, or when the session ends.
 */
export class EarlyAlgoChildren {
  private held: Held[] = [];
  /** The algo order each held order names, by the order's key. */
  private readonly algoOfOrder = new Map<string, string>();
  private readonly seen = new Set<string>();
  private readonly seenOrder: string[] = [];

  /**
   * Notes an algo order reported (by its venue id): orders naming it are not held.
   * @param algoOrderId - the algo order's venue id
   */
  sawAlgo(algoOrderId: string): void {
    if (algoOrderId === '' || this.seen.has(algoOrderId)) return;
    this.seen.add(algoOrderId);
    this.seenOrder.push(algoOrderId);
    if (this.seenOrder.length > SEEN_ALGO_ORDERS_KEPT) this.seen.delete(this.seenOrder.shift() as string);
  }

  /**
   * Holds an update of an order naming an algo order not seen yet.
   * @param event - the update of an order owned by no strategy
   * @returns whether it was held
   */
  holdOrder(event: OrderUpdateEvent): boolean {
    const { algoOrderId } = event.order;
    if (algoOrderId === undefined || algoOrderId === '' || this.seen.has(algoOrderId)) return false;
    this.algoOfOrder.set(orderKey(event.order), algoOrderId);
    this.held.push({ algoOrderId, event });
    return true;
  }

  /**
   * Holds a fill of an order whose updates are held.
   * @param event - a fill owned by no strategy
   * @returns whether it was held
   */
  holdFill(event: ExecutionEvent): boolean {
    const algoOrderId = this.algoOfOrder.get(orderKey(event.execution));
    if (algoOrderId === undefined) return false;
    this.held.push({ algoOrderId, event });
    return true;
  }

  /**
   * Ends the wait of what names an algo order just reported.
   * @param algoOrderId - its venue id
   * @returns the updates and fills it held, in the order they came
   */
  release(algoOrderId: string): (OrderUpdateEvent | ExecutionEvent)[] {
    return this.take((held) => held.algoOrderId === algoOrderId);
  }

  /**
   * Ends the wait of what was held longer than {@link EARLY_ALGO_CHILDREN_WAIT_MS} before `now`.
   * @param now - the venue time of the event being journaled
   * @returns those updates and fills, in the order they came
   */
  expired(now: number): (OrderUpdateEvent | ExecutionEvent)[] {
    const first = this.held[0];
    if (first === undefined || now - first.event.ts <= EARLY_ALGO_CHILDREN_WAIT_MS) return [];
    return this.take((held) => now - held.event.ts > EARLY_ALGO_CHILDREN_WAIT_MS);
  }

  /** @returns everything held, in the order it came (the session ends) */
  drain(): (OrderUpdateEvent | ExecutionEvent)[] {
    return this.take(() => true);
  }

  private take(which: (held: Held) => boolean): (OrderUpdateEvent | ExecutionEvent)[] {
    if (this.held.length === 0) return [];
    const taken: (OrderUpdateEvent | ExecutionEvent)[] = [];
    const left: Held[] = [];
    for (const held of this.held) {
      if (which(held)) taken.push(held.event);
      else left.push(held);
    }
    this.held = left;
    for (const event of taken) {
      if (event.kind === 'order') this.algoOfOrder.delete(orderKey(event.order));
    }
    return taken;
  }
}
