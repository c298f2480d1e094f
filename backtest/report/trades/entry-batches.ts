import { RetentionQueue } from '../../../core/kernel/index.ts';
import type { Dec, PlaceOrderIntent } from '../../../core/model/index.ts';

/**
 * Most orders remembered (Keel's choice): the oldest is forgotten past it, so a long run stays in
 * bounded memory. An order still filling after this many later placements counts as a batch of its
 * own from then on.
 */
const MAX_REMEMBERED = 100_000;

/**
 * Most batches whose next slice is still awaited (Keel's choice): a live client may send one hook
 * call's slices after later calls' orders (it sends one sym's commands in turn), never this many
 * batches later.
 */
const MAX_RECENT_BATCHES = 10_000;

/** A recent hook call's batch: what its orders share, and its number. */
interface RecentBatch {
  readonly hookCall: number;
  readonly strategyId: string;
  readonly sym: string;
  readonly side: PlaceOrderIntent['side'];
  readonly positionSide: PlaceOrderIntent['positionSide'];
  readonly orderType: PlaceOrderIntent['orderType'];
  /**
   * The price as text, empty for none: a batch is remembered long after its orders (while 10 000
   * later batches come), and the Decimal itself weighed several times its text.
   */
  readonly price: string;
  /** Its number. */
  readonly batch: number;
}

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
  /**
   * The latest batches by hook call (one, or a list when a call made several): found by the
   * call's number and compared field by field, where a key joined from the fields was a string
   * made and hashed per order placed.
   */
  private readonly recent = new Map<number, RecentBatch | RecentBatch[]>();
  /** The batches of {@link recent}, oldest first. */
  private readonly recentOrder = new RetentionQueue<RecentBatch>(MAX_RECENT_BATCHES);
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
    const batch = (
      this.recentBatch(strategyId, order, hookCall) ?? this.newBatch(strategyId, order, hookCall)
    ).batch;
    const known = this.batches.has(order.ref);
    this.batches.set(order.ref, batch);
    if (!known) {
      const evicted = this.rememberedOrder.push(order.ref);
      if (evicted !== undefined) this.batches.delete(evicted);
    }
  }

  /**
   * @param clientOrderId - an order's reference
   * @returns its batch, undefined for an order not noted (or forgotten): a batch of its own
   */
  batchOf(clientOrderId: string): string | undefined {
    const batch = this.batches.get(clientOrderId);
    return batch === undefined ? undefined : `batch|${batch}`;
  }

  /** The batch of the hook call the order joins, if the call sent one like it already. */
  private recentBatch(
    strategyId: string,
    order: PlaceOrderIntent,
    hookCall: number,
  ): RecentBatch | undefined {
    const found = this.recent.get(hookCall);
    if (found === undefined) return undefined;
    if (!Array.isArray(found)) return joins(found, strategyId, order) ? found : undefined;
    return found.find((batch) => joins(batch, strategyId, order));
  }

  private newBatch(strategyId: string, order: PlaceOrderIntent, hookCall: number): RecentBatch {
    const batch: RecentBatch = {
      hookCall,
      strategyId,
      sym: order.sym,
      side: order.side,
      positionSide: order.positionSide,
      orderType: order.orderType,
      price: priceText(order.price),
      batch: this.nextBatch++,
    };
    const found = this.recent.get(hookCall);
    if (found === undefined) this.recent.set(hookCall, batch);
    else if (Array.isArray(found)) found.push(batch);
    else this.recent.set(hookCall, [found, batch]);
    const evicted = this.recentOrder.push(batch);
    if (evicted !== undefined) this.forget(evicted);
    return batch;
  }

  /** Drops a batch no longer awaited from its hook call's. */
  private forget(batch: RecentBatch): void {
    const found = this.recent.get(batch.hookCall);
    if (found === batch) this.recent.delete(batch.hookCall);
    else if (Array.isArray(found)) {
      const at = found.indexOf(batch);
      if (at >= 0) found.splice(at, 1);
      if (found.length === 0) this.recent.delete(batch.hookCall);
    }
  }
}

/** Whether an order of the batch's hook call belongs to it: alike but for quantity. */
function joins(batch: RecentBatch, strategyId: string, order: PlaceOrderIntent): boolean {
  return (
    batch.strategyId === strategyId &&
    batch.sym === order.sym &&
    batch.side === order.side &&
    batch.positionSide === order.positionSide &&
    batch.orderType === order.orderType &&
    batch.price === priceText(order.price)
  );
}

/** A price as a batch tells it: its text, empty for none (a market order has none). */
function priceText(price: Dec | undefined): string {
  return price === undefined ? '' : price.toString();
}
