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
  /** Each remembered order's batch number, oldest first. */
  private readonly batches = new Map<string, number>();
  /** The batch numbers of the latest hook calls' batches, by what makes a batch, oldest first. */
  private readonly recent = new Map<string, number>();
  private nextBatch = 0;

  /** @param maxRemembered - most orders remembered, the oldest forgotten past it (default 100 000) */
  constructor(private readonly maxRemembered = MAX_REMEMBERED) {}

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
      forgetOldest(this.recent, MAX_RECENT_BATCHES);
    }
    this.batches.set(order.ref, batch);
    forgetOldest(this.batches, this.maxRemembered);
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

/** Drops a map's oldest entry while it holds more than `max`. */
function forgetOldest<V>(map: Map<string, V>, max: number): void {
  if (map.size > max) map.delete(map.keys().next().value as string);
}
