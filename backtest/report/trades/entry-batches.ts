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
  private readonly batches = new Map<string, string>();

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
    this.batches.set(
      order.ref,
      `${hookCall}|${strategyId}|${order.sym}|${order.side}|${order.positionSide}|${order.orderType}|${price}`,
    );
    if (this.batches.size > this.maxRemembered) {
      const oldest = this.batches.keys().next().value as string;
      this.batches.delete(oldest);
    }
  }

  /**
   * @param clientOrderId - an order's reference
   * @returns its batch, undefined for an order not noted (or forgotten): a batch of its own
   */
  batchOf(clientOrderId: string): string | undefined {
    return this.batches.get(clientOrderId);
  }
}
