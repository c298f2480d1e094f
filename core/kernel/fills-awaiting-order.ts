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
export interface HeldFill {
  readonly event: ExecutionEvent;
  /** The run's time when it was held, epoch ms. */
  readonly heldAt: number;
}

/**
 * The fills that arrived before their order's first update, owned by no strategy yet, by the
 * orderId they name, until that update arrives and says whose they are. The venue's Trades and
 * Orders channels are not ordered with each other, so a fill of an order Keel did not place (the
 * order a stop sent, a take-profit / stop-loss leg, one placed by hand) may come first; without
 * this it reached no strategy. A fill waits at most {@link FILL_AWAITING_ORDER_MS}
 * ({@link FillsAwaitingOrder.expire}): an update that comes later (after a reconnect, say) no
 * longer takes it to a strategy, which the session's journal and the live adapter's warning had by
 * then said of it. The last {@link AWAITING_ALGO_CHILDREN_KEPT} are held, the oldest pushed out
 * first.
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
   * @returns the oldest held fill, pushed out to make room, undefined when none was
   */
  hold(event: ExecutionEvent, now: number): HeldFill | undefined {
    return this.fills.add(event.execution.orderId, { event, heldAt: now });
  }

  /**
   * Gives up the fills held longer than {@link FILL_AWAITING_ORDER_MS}: their order's update no
   * longer takes them to a strategy.
   * @param now - the run's time, epoch ms
   * @returns the fills given up, oldest first (empty when none)
   */
  expire(now: number): readonly HeldFill[] {
    if (this.fills.size === 0) return NO_FILLS;
    return this.fills.forgetOldestWhile((held) => now - held.heldAt > FILL_AWAITING_ORDER_MS);
  }

  /** @returns when the fill held longest was held (the run's time, epoch ms), undefined when none is */
  oldestHeldAt(): number | undefined {
    return this.fills.oldest()?.heldAt;
  }

  /**
   * Ends the wait of the fills of an order just updated; those held longer than
   * {@link FILL_AWAITING_ORDER_MS} were given up before ({@link FillsAwaitingOrder.expire}).
   * @param orderId - the order's venue id
   * @returns its held fills in arrival order (empty when none waited)
   */
  take(orderId: string): readonly ExecutionEvent[] {
    if (this.fills.size === 0) return NOTHING;
    const held = this.fills.take(orderId);
    return held.length === 0 ? NOTHING : held.map((fill) => fill.event);
  }
}

/** What {@link FillsAwaitingOrder.expire} gives when none is held: one shared empty list. */
const NO_FILLS: readonly HeldFill[] = [];

/** What {@link FillsAwaitingOrder.take} gives when no fill waited: one shared empty list. */
const NOTHING: readonly ExecutionEvent[] = [];
