import type { ExecutionEvent } from '../model/index.ts';
import { AWAITING_ALGO_CHILDREN_KEPT } from './algo-children-awaiting.ts';
import { HeldGroups } from './held-groups.ts';

/**
 * How long (ms of the run's time) a fill waits for its order's first update before it is given up
 * to no strategy. Keel's choice, as long as a session's journal holds the same fill
 * (`EARLY_ALGO_CHILDREN_WAIT_MS`, 10 s): the update trails its fill by far less, and the live
 * adapter looks the order up after 3 s and, when the venue cannot say whose it was, warns that no
 * strategy was told of the fill, as the journal records it.
 */
export const FILL_AWAITING_ORDER_MS = 10_000;

/** A held fill and when it was held. */
interface HeldFill {
  readonly event: ExecutionEvent;
  /** The run's time when it was held, epoch ms. */
  readonly heldAt: number;
}

/**
 * The fills that arrived before their order's first update, owned by no strategy yet, by the
 * orderId they name, until that update arrives and says whose they are. The venue's Trades and
 * Orders channels are not ordered with each other, so a fill of an order Keel did not place (the
 * order a stop sent, a take-profit / stop-loss leg, one placed by hand) may come first; without
 * this it reached no strategy. A fill waits at most {@link FILL_AWAITING_ORDER_MS}: an update
 * that comes later (after a reconnect, say) no longer takes it to a strategy, which the session's
 * journal and the live adapter's warning had by then said of it. The last
 * {@link AWAITING_ALGO_CHILDREN_KEPT} are held, oldest forgotten first.
 */
export class FillsAwaitingOrder {
  /** The held fills, by the orderId they name. */
  private readonly fills: HeldGroups<HeldFill>;

  /** @param kept - how many fills are held at most */
  constructor(kept = AWAITING_ALGO_CHILDREN_KEPT) {
    this.fills = new HeldGroups(kept);
  }

  /**
   * Holds a fill until its order's first update.
   * @param event - a fill whose order the kernel has not seen
   * @param now - the run's time, epoch ms
   */
  hold(event: ExecutionEvent, now: number): void {
    this.fills.add(event.execution.orderId, { event, heldAt: now });
  }

  /**
   * Ends the wait of the fills of an order just updated; those held longer than
   * {@link FILL_AWAITING_ORDER_MS} were given up before.
   * @param orderId - the order's venue id
   * @param now - the run's time, epoch ms
   * @returns its held fills in arrival order (empty when none waited)
   */
  take(orderId: string, now: number): readonly ExecutionEvent[] {
    if (this.fills.size === 0) return NOTHING;
    this.fills.forgetOldestWhile((held) => now - held.heldAt > FILL_AWAITING_ORDER_MS);
    const held = this.fills.take(orderId);
    return held.length === 0 ? NOTHING : held.map((fill) => fill.event);
  }
}

/** What {@link FillsAwaitingOrder.take} gives when no fill waited: one shared empty list. */
const NOTHING: readonly ExecutionEvent[] = [];
