import type { Logger } from 'pino';
import { LastingLookupFailure } from '../../execution/index.ts';
import type { Execution, Order, UserEvent } from '../../model/index.ts';
import type { TimerPort } from '../timer-port.ts';
import { CancellableWaits } from './cancellable-waits.ts';

/**
 * How long (ms, venue time) a fill may come before its order's first update before that order is
 * looked up. Keel's choice: the venue's Trades and Orders channels are not ordered with each
 * other, but the update trails its fill by far less; shorter than the session journal's wait for
 * the same update (`EARLY_ALGO_CHILDREN_WAIT_MS`, 10 s), so the journal records the fill with the
 * owner the lookup found.
 */
export const FILL_ORDER_WAIT_MS = 3_000;

/** How many order ids whose updates came are remembered (Keel's choice). */
const SEEN_ORDERS_KEPT = 10_000;

/** How many fills at most wait for their order's update at once (the kernel holds as many). */
const WAITING_KEPT = 1_000;

/** What {@link FillsWithoutOrder} needs. */
export interface FillsWithoutOrderOptions {
  /** The venue's time and the client's timers. */
  readonly timer: TimerPort;
  /** What the orders it reports are stamped with. */
  readonly stampNow: () => number;
  /** Looks an order up (undefined: 401018); throws `LastingLookupFailure` when asking again will not help. */
  readonly lookupOrder: (fill: Execution) => Promise<Order | undefined>;
  /** Reports the order the venue answered. */
  readonly emit: (event: UserEvent) => void;
  /** Told, with the warning, of a fill whose order could not be found: no strategy was told of it. */
  readonly unowned: (warning: string) => void;
  /** Lookups before giving up (not found or failed). */
  readonly attempts: number;
  /** Wait between lookups, ms; it doubles after each. */
  readonly spacingMs: number;
  readonly logger: Logger;
}

interface Waiting {
  readonly fill: Execution;
  /** Ends the wait now. */
  wake: () => void;
}

/**
 * Fills whose order the client has not seen an update of: the kernel (and the session's journal)
 * holds such a fill for the update that names its owner, since the venue's Trades and Orders
 * channels are not ordered with each other. When that update never comes (a push lost), the fill
 * would reach no strategy, silently. So after {@link FILL_ORDER_WAIT_MS} without it, the order is
 * looked up and the venue's answer reported as an order update (which hands the fill to the
 * owner it names); when the venue cannot say (not found, or every lookup failed), the fill stays
 * with no owner and a warning names it. At most the last 1,000 such fills are followed.
 */
export class FillsWithoutOrder {
  private readonly seen = new Set<string>();
  private readonly seenOrder: string[] = [];
  private readonly waiting = new Map<string, Waiting>();
  private readonly waits: CancellableWaits;
  private stopped = false;

  /** @param options - the timer, lookup, where answers and warnings go, and the policy */
  constructor(private readonly options: FillsWithoutOrderOptions) {
    this.waits = new CancellableWaits(options.timer);
  }

  /**
   * An event the client passed on: an order update ends the wait of its order's fills; a fill of
   * an order not seen starts one.
   * @param event - the event
   */
  observe(event: UserEvent): void {
    if (event.kind === 'order') {
      this.sawOrder(event.order.orderId);
      return;
    }
    if (event.kind !== 'execution' || this.stopped) return;
    const fill = event.execution;
    if (fill.orderId === '' || this.seen.has(fill.orderId) || this.waiting.has(fill.orderId)) return;
    const entry: Waiting = { fill, wake: () => undefined };
    this.waiting.set(fill.orderId, entry);
    if (this.waiting.size > WAITING_KEPT) {
      const oldest = this.waiting.keys().next().value as string;
      this.waiting.get(oldest)?.wake();
      this.waiting.delete(oldest);
    }
    void this.follow(entry);
  }

  /** Stops every wait and lookup (the client is stopping). */
  stop(): void {
    this.stopped = true;
    this.waits.cancelAll();
    for (const entry of this.waiting.values()) entry.wake();
    this.waiting.clear();
  }

  private sawOrder(orderId: string): void {
    if (orderId === '') return;
    const entry = this.waiting.get(orderId);
    if (entry !== undefined) {
      this.waiting.delete(orderId);
      entry.wake();
    }
    if (this.seen.has(orderId)) return;
    this.seen.add(orderId);
    this.seenOrder.push(orderId);
    if (this.seenOrder.length > SEEN_ORDERS_KEPT) this.seen.delete(this.seenOrder.shift() as string);
  }

  private async follow(entry: Waiting): Promise<void> {
    const { fill } = entry;
    const followed = () => !this.stopped && this.waiting.get(fill.orderId) === entry;
    let wait = FILL_ORDER_WAIT_MS;
    let why = 'the venue does not know it (401018)';
    for (let attempt = 0; attempt < this.options.attempts; attempt++) {
      const pause = this.waits.wait(wait);
      entry.wake = pause.wake;
      await pause.done;
      wait = attempt === 0 ? this.options.spacingMs : wait * 2;
      if (!followed()) return;
      try {
        const order = await this.options.lookupOrder(fill);
        if (!followed()) return;
        if (order !== undefined) {
          this.waiting.delete(fill.orderId);
          const now = this.options.stampNow();
          this.options.emit({ kind: 'order', ts: now, recvTs: now, order });
          return;
        }
        why = 'the venue does not know it (401018)';
      } catch (error) {
        if (!followed()) return;
        why = `its lookup failed: ${error instanceof Error ? error.message : String(error)}`;
        if (error instanceof LastingLookupFailure) break;
        this.options.logger.warn(
          { orderId: fill.orderId, transactionId: fill.transactionId, err: String(error) },
          'lookup of the order of a fill that came without its order failed; will retry',
        );
      }
    }
    if (!followed()) return;
    this.waiting.delete(fill.orderId);
    this.options.unowned(
      `fill ${fill.transactionId} of order ${fill.orderId} (${fill.sym} ${fill.side} ${fill.quantity.toFixed()}) came without any update of its order, and ${why}: no strategy was told of it (it is in the positions and the session's fills)`,
    );
  }
}
