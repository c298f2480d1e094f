import { RetentionQueue } from '../../../core/kernel/index.ts';
import type { PlaceOrderIntent } from '../../../core/model/index.ts';

/**
 * Most orders remembered (Keel's choice): the oldest is forgotten past it, so a long run stays in
 * bounded memory. An order still filling after this many later placements counts as a batch of its
 * own from then on.
 */
const MAX_REMEMBERED = 100_000;

/**
 * Which orders are one order sliced into several, for the trade list ({@link RoundTripBook}): the
 * orders one strategy sends in one hook call (the kernel's `hookCall` on the command, e.g. a
 * target cut into pieces of at most the instrument's `maxMarketSize`) for the same sym, side,
 * positionSide, order type and price form one batch, whose fills count as one order's. The same
 * in every mode: the call, not a clock, groups them, so slices a live venue receives a moment
 * apart are still one batch. Orders that differ in anything but quantity (a ladder of limits at
 * several prices) are batches of their own.
 */
export class EntryBatches {
  /** Each remembered order's batch number. */
  private readonly batches = new Map<string, number>();
  /** The remembered orders' references, oldest first. */
  private readonly rememberedOrder: RetentionQueue;
  /** The batch numbers of the latest hook calls' batches, by what makes a batch. */
  private readonly recent = new Map<string, number>();
  /** The keys of {@link recent}, oldest first. */
  private readonly recentOrder = new RetentionQueue(MAX_RECENT_BATCHES);
  private nextBatch = 0;

  /** @param maxRemembered - most orders remembered, the oldest forgotten past it (default 100 000) */
  constructor(maxRemembered = MAX_REMEMBERED) {
    this.rememberedOrder = new RetentionQueue(maxRemembered);
  }

  /**
   * Notes an order as it is sent.
   * @param strategyId - the strategy sending it
   * @param order - the order
   * @param hookCall - the kernel's number for the hook call that sent it (`StrategyIntent.hookCall`);
   *   undefined for one sent otherwise, a batch of its own
   */
  placed(strategyId: string, order: PlaceOrderIntent, hookCall: number | undefined): void {
    if (hookCall === undefined) return;
    const price = order.price === undefined ? '' : order.price.toString();
    const key = `${hookCall}|${strategyId}|${order.sym}|${order.side}|${order.positionSide}|${order.orderType}|${price}`;
    let batch = this.recent.get(key);
    if (batch === undefined) {
      batch = this.nextBatch++;
      this.recent.set(key, batch);
      forget(this.recent, this.recentOrder.push(key));
    }
    const known = this.batches.has(order.ref);
    this.batches.set(order.ref, batch);
    if (!known) forget(this.batches, this.rememberedOrder.push(order.ref));
  }

  /**
   * @param clientOrderId - an order's reference
   * @returns its batch, undefined for an order not noted (or forgotten): a batch of its own
   */
  batchOf(clientOrderId: string): string | undefined {
    const batch = this.batches.get(clientOrderId);
    return batch === undefined ? undefined : `batch|${batch}`;
  }
}

/**
 * Most batches whose next slice is still awaited (Keel's choice): a live client may send one hook
 * call's slices after later calls' orders (it sends one sym's commands in turn), never this many
 * batches later.
 */
const MAX_RECENT_BATCHES = 10_000;

/**
 * Drops the entry a {@link RetentionQueue} no longer retains. (Asking the map for its oldest key
 * instead walks past every entry deleted since its last rehash, so a full map paid that walk on
 * each placement.)
 */
function forget<V>(map: Map<string, V>, evicted: string | undefined): void {
  if (evicted !== undefined) map.delete(evicted);
}
