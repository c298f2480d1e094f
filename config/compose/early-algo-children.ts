import { orderKey } from '../../core/kernel/index.ts';
import type { ExecutionEvent, OrderUpdateEvent } from '../../core/model/index.ts';

/**
 * How long (ms) the journal holds the updates and fills of an order naming an algo order it has
 * not seen, waiting for that algo order's report, and a fill that came before its order's first
 * update, waiting for that update. Keel's choice: the place reply of an algo order whose trigger
 * was met at once trails the order it sent by a round trip, far less, and so does an order's
 * update its fill; an algo order placed by hand on the venue is never reported, and its orders'
 * records must not wait long for it.
 */
export const EARLY_ALGO_CHILDREN_WAIT_MS = 10_000;

/** How many algo orders' venue ids the journal remembers having seen (Keel's choice). */
const SEEN_ALGO_ORDERS_KEPT = 10_000;

/** An order update or fill held, with what it waits for. */
interface Held {
  /** The algo order its order names; undefined for a fill waiting for its order's first update. */
  algoOrderId: string | undefined;
  readonly event: OrderUpdateEvent | ExecutionEvent;
  /** When it was held on the journal's timer, if it has one (epoch ms). */
  readonly heldAt: number | undefined;
}

/** Events released from a wait, in the order they came. */
type Released = (OrderUpdateEvent | ExecutionEvent)[];

/**
 * The updates and fills a session's journal holds back because their order, owned by no strategy
 * yet, names an algo order the journal has not seen (`algoOrderId`): a stop whose trigger is met
 * at once fires before its place reply arrives, and its strategy is known only from that reply.
 * They are recorded once the algo order is reported, with its strategy, in the order they came.
 * A fill owned by no strategy whose order the journal has not seen is held for that order's first
 * update (the venue's Trades and Orders channels are not ordered with each other), and goes where
 * the update goes: recorded with it, or held with it for its algo order. Whatever waits is
 * recorded as it is once it waited {@link EARLY_ALGO_CHILDREN_WAIT_MS} (by the venue time of the
 * events that follow it, or on the journal's timer when no event comes), or when the session ends.
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
   * Holds an update of an order naming an algo order not seen yet, with the fills of that order
   * that came before it.
   * @param event - the update of an order owned by no strategy
   * @param heldAt - the time on the journal's timer, when it has one
   * @returns whether it was held
   */
  holdOrder(event: OrderUpdateEvent, heldAt?: number): boolean {
    const { algoOrderId, orderId } = event.order;
    if (algoOrderId === undefined || algoOrderId === '' || this.seen.has(algoOrderId)) return false;
    this.algoOfOrder.set(orderKey(event.order), algoOrderId);
    for (const held of this.held)
      if (held.algoOrderId === undefined && awaitsOrder(held, orderId)) held.algoOrderId = algoOrderId;
    this.held.push({ algoOrderId, event, heldAt });
    return true;
  }

  /**
   * Holds a fill of an order whose updates are held, or of an order not seen yet.
   * @param event - a fill owned by no strategy
   * @param orderUnseen - whether the journal has no update of the fill's order
   * @param heldAt - the time on the journal's timer, when it has one
   * @returns whether it was held
   */
  holdFill(event: ExecutionEvent, orderUnseen: boolean, heldAt?: number): boolean {
    const algoOrderId = this.algoOfOrder.get(orderKey(event.execution));
    if (algoOrderId === undefined && !orderUnseen) return false;
    this.held.push({ algoOrderId, event, heldAt });
    return true;
  }

  /**
   * Ends the wait of the fills that came before an order's first update, now recorded.
   * @param orderId - the order's venue id
   * @returns those fills, in the order they came
   */
  fillsBefore(orderId: string): ExecutionEvent[] {
    if (orderId === '') return [];
    return this.take(
      (held) => held.algoOrderId === undefined && awaitsOrder(held, orderId),
    ) as ExecutionEvent[];
  }

  /**
   * Ends the wait of what names an algo order just reported.
   * @param algoOrderId - its venue id
   * @returns the updates and fills it held, in the order they came
   */
  release(algoOrderId: string): Released {
    return this.take((held) => held.algoOrderId === algoOrderId);
  }

  /**
   * Ends the wait of what was held longer than {@link EARLY_ALGO_CHILDREN_WAIT_MS} before `now`.
   * @param now - the venue time of the event being journaled
   * @returns those updates and fills, in the order they came
   */
  expired(now: number): Released {
    const first = this.held[0];
    if (first === undefined || now - first.event.ts <= EARLY_ALGO_CHILDREN_WAIT_MS) return [];
    return this.take((held) => now - held.event.ts > EARLY_ALGO_CHILDREN_WAIT_MS);
  }

  /**
   * Ends the wait of what was held longer than {@link EARLY_ALGO_CHILDREN_WAIT_MS} on the
   * journal's timer.
   * @param now - the timer's time
   * @returns those updates and fills, in the order they came
   */
  expiredOnTimer(now: number): Released {
    return this.take((held) => held.heldAt !== undefined && now - held.heldAt > EARLY_ALGO_CHILDREN_WAIT_MS);
  }

  /** @returns when (on the journal's timer) the oldest event held on it is due, undefined when none is */
  nextDue(): number | undefined {
    let due: number | undefined;
    for (const held of this.held)
      if (held.heldAt !== undefined) {
        const at = held.heldAt + EARLY_ALGO_CHILDREN_WAIT_MS + 1;
        if (due === undefined || at < due) due = at;
      }
    return due;
  }

  /** @returns everything held, in the order it came (the session ends) */
  drain(): Released {
    return this.take(() => true);
  }

  private take(which: (held: Held) => boolean): Released {
    if (this.held.length === 0) return [];
    const taken: Released = [];
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

/** Whether a held event is a fill of this order. */
function awaitsOrder(held: Held, orderId: string): boolean {
  return held.event.kind === 'execution' && held.event.execution.orderId === orderId;
}
