import type { Logger } from 'pino';
import {
  forgottenOrdersWarning,
  LastingLookupFailure,
  UNREADABLE_ORDER_REASON,
  type UnknownToVenue,
  unknownAlgoOrderEnded,
  unknownOrderEnded,
} from '../../execution/index.ts';
import type { AlgoOrder, Order, UserEvent } from '../../model/index.ts';
import { monotonicOf, type TimerPort } from '../timer-port.ts';
import { CancellableWaits } from './cancellable-waits.ts';
import { openOrderKey, orderNameOf } from './local-trading-view.ts';
import type { UnackedLookupPolicy } from './order-placement.ts';

/** What looking up again the orders a reconciliation found unknown to the venue needs. */
export interface UnknownOrderLookupsOptions {
  /** When the venue is asked again, and when it has said "not found" long enough (that of unacked orders). */
  readonly policy: UnackedLookupPolicy;
  /** The venue's time (`giveUpMs` is measured on it, on its monotonic reading when it has one) and the client's timers. */
  readonly timer: TimerPort;
  /**
   * What the answers and verdicts it reports are stamped with (the client's event clock, see
   * `LiveExecutionOptions.eventClock`); default `timer.now`.
   */
  readonly stampNow?: () => number;
  /** Looks an order up (undefined: 401018); throws `LastingLookupFailure` when asking again will not help. */
  readonly lookupOrder: (order: Order) => Promise<Order | undefined>;
  /** Looks an algo order up (undefined: 401018); throws `LastingLookupFailure` when asking again will not help. */
  readonly lookupAlgoOrder: (algoOrder: AlgoOrder) => Promise<AlgoOrder | undefined>;
  /** Reports what the venue answered, or Keel's verdict. */
  readonly emit: (event: UserEvent) => void;
  /** Told, with the warning, of an acknowledged order ended because the venue still does not know it. */
  readonly forgotten: (warning: string) => void;
  readonly logger: Logger;
}

interface Followed {
  unknown: UnknownToVenue;
  /** When the first "not found" came, on the timer's monotonic reading. */
  readonly since: number;
  notFound: number;
  /** Whether a lookup loop runs for it. */
  looping: boolean;
  /** Ends the loop's wait now. */
  wake: () => void;
  /** Settles once it is no longer followed (the venue's answer, Keel's verdict, an update, the stop). */
  readonly done: Promise<void>;
  readonly settled: () => void;
}

/**
 * How the reason of an acknowledged order ended because Keel's lookups kept finding it unknown to
 * the venue begins (then how many "not found" over how long).
 */
export const LOOKED_UP_UNKNOWN_REASON = 'the venue does not know this order it acknowledged';

/**
 * Orders the venue acknowledged, and algo orders, that a reconciliation found neither listed open
 * nor known (401018), or whose modify or cancel the venue refused as unknown, kept open and looked
 * up again: a venue's REST read side may lag its matching engine, so one "not found" right after a
 * reconnect does not mean the venue lost the order. Each
 * is looked up with the unacked orders' policy (`spacingMs` doubling to `capMs`) until the venue
 * reports it (that answer is emitted) or has said "not found" at least `minNotFound` times over
 * `giveUpMs` since the first; only then is it ended as reconciliation ends an order the venue does
 * not know (CANCELLED, `synthesized`, with the warning that the venue forgot it; an algo order
 * CANCELLED). A lookup that failed for good ends it at once; any other failure never counts. An
 * update of it from anywhere (a push, another reconciliation's correction) ends the lookups. A
 * later "not found" of an order already followed (another reconciliation's, a refused modify or
 * cancel) counts towards the verdict but never puts it off: the 30 s run from the first one, and
 * the waits between lookups are cut short so the lookup that can give the verdict comes when it is
 * due.
 */
export class UnknownOrderLookups {
  private readonly followed = new Map<string, Followed>();
  private readonly waits: CancellableWaits;
  private stopped = false;

  /** What the answers and verdicts it reports are stamped with. */
  private readonly stampNow: () => number;

  /** @param options - the policy, timers, lookups and where answers and verdicts go */
  constructor(private readonly options: UnknownOrderLookupsOptions) {
    this.stampNow = options.stampNow ?? (() => options.timer.now());
    this.waits = new CancellableWaits(options.timer);
  }

  /**
   * Reconciliation's `keepUnknownOpen`: counts this "not found" and says whether the order is kept
   * open (and looked up again) or is to be ended now, the policy's verdict being due.
   * @param unknown - the order or algo order the venue does not know
   * @returns true when kept open
   */
  keepOpen(unknown: UnknownToVenue): boolean {
    if (this.stopped) return false;
    const key = keyOf(unknown);
    const entry = this.followed.get(key) ?? newEntry(unknown, monotonicOf(this.options.timer));
    entry.unknown = unknown;
    entry.notFound++;
    if (this.verdictDue(entry)) {
      this.forget(key);
      return false;
    }
    this.followed.set(key, entry);
    if (!entry.looping) void this.follow(key, entry);
    return true;
  }

  /**
   * The venue refused a modify or cancel of an order it acknowledged as "not found" (401018):
   * counted as one more "not found" of it, and the order looked up (see {@link keepOpen}); when
   * the verdict is due, it is ended now, as the lookups end it.
   * @param unknown - the order or algo order the venue does not know
   */
  refused(unknown: UnknownToVenue): void {
    if (this.stopped) return;
    const entry = this.followed.get(keyOf(unknown));
    if (this.keepOpen(unknown)) return;
    this.giveUp(unknown, entry ?? newEntry(unknown, monotonicOf(this.options.timer)));
  }

  /**
   * @param clientOrderId - an order's reference
   * @returns settles once the order is no longer looked up (the venue's answer or Keel's verdict
   *   emitted, an update of it passed on, or the stop); undefined when it is not looked up
   */
  lookupOf(clientOrderId: string): Promise<void> | undefined {
    if (clientOrderId === '') return undefined;
    return this.followed.get(orderKey({ clientOrderId, orderId: '' }))?.done;
  }

  /** @returns the references of the orders and algo orders looked up now (an order's orderId when it has none) */
  lookingUp(): string[] {
    return [...this.followed.values()].map(({ unknown }) =>
      unknown.kind === 'algoOrder' ? unknown.algoOrder.clientAlgoOrderId : orderNameOf(unknown.order),
    );
  }

  /**
   * An update the client passes on: an order or algo order it concerns is no longer followed.
   * @param event - the event
   */
  settle(event: UserEvent): void {
    if (event.kind === 'order') this.forget(keyOf({ kind: 'order', order: event.order }));
    else if (event.kind === 'algoOrder')
      this.forget(keyOf({ kind: 'algoOrder', algoOrder: event.algoOrder }));
  }

  /** Stops every lookup (the client is stopping). */
  stop(): void {
    this.stopped = true;
    this.waits.cancelAll();
    for (const key of [...this.followed.keys()]) this.forget(key);
  }

  private verdictDue(entry: Followed): boolean {
    const { minNotFound, giveUpMs } = this.options.policy;
    return entry.notFound >= minNotFound && monotonicOf(this.options.timer) - entry.since >= giveUpMs;
  }

  private forget(key: string): void {
    const entry = this.followed.get(key);
    if (entry === undefined) return;
    this.followed.delete(key);
    entry.wake();
    entry.settled();
  }

  /** How long to wait before the next lookup: the spacing, but no later than the verdict is due. */
  private nextWait(entry: Followed, spacing: number): number {
    const left = entry.since + this.options.policy.giveUpMs - monotonicOf(this.options.timer);
    return left > 0 ? Math.min(spacing, left) : spacing;
  }

  private async follow(key: string, entry: Followed): Promise<void> {
    entry.looping = true;
    let spacing = this.options.policy.spacingMs;
    try {
      for (;;) {
        await this.wait(entry, this.nextWait(entry, spacing));
        spacing = Math.min(spacing * 2, this.options.policy.capMs);
        if (this.followed.get(key) !== entry) return;
        let found: UserEvent | undefined;
        try {
          found = await this.lookUp(entry.unknown);
        } catch (error) {
          if (this.followed.get(key) !== entry) return;
          if (error instanceof LastingLookupFailure) {
            this.forget(key);
            this.end(entry.unknown, `${UNREADABLE_ORDER_REASON}: ${error.message}`);
            return;
          }
          this.options.logger.warn(
            { ...describe(entry.unknown), err: String(error) },
            'lookup of an order the venue did not know failed; will retry',
          );
          continue;
        }
        if (this.followed.get(key) !== entry) return;
        if (found !== undefined) {
          this.forget(key);
          this.options.emit(found);
          return;
        }
        entry.notFound++;
        if (this.verdictDue(entry)) {
          this.forget(key);
          this.giveUp(entry.unknown, entry);
          return;
        }
      }
    } finally {
      entry.looping = false;
    }
  }

  private wait(entry: Followed, ms: number): Promise<void> {
    const wait = this.waits.wait(ms);
    entry.wake = wait.wake;
    return wait.done;
  }

  private async lookUp(unknown: UnknownToVenue): Promise<UserEvent | undefined> {
    const now = this.stampNow();
    if (unknown.kind === 'order') {
      const order = await this.options.lookupOrder(unknown.order);
      return order === undefined ? undefined : { kind: 'order', ts: now, recvTs: now, order };
    }
    const algoOrder = await this.options.lookupAlgoOrder(unknown.algoOrder);
    return algoOrder === undefined ? undefined : { kind: 'algoOrder', ts: now, recvTs: now, algoOrder };
  }

  /** Keel's verdict: the venue still does not know it; ended with a reason naming the lookups. */
  private giveUp(unknown: UnknownToVenue, entry: Followed): void {
    const seconds = Math.round((monotonicOf(this.options.timer) - entry.since) / 1000);
    const times = `${Math.max(entry.notFound, 1)} "not found" over ${seconds} s`;
    this.end(unknown, `${LOOKED_UP_UNKNOWN_REASON}: ${times} of lookups`, `after ${times}, at`);
  }

  /**
   * Ends it as reconciliation ends what the venue does not know, and says so.
   * @param found - for an order given up on, how the venue was found not to know it (the
   *   forgotten-order warning is then given); undefined for one whose lookup failed for good
   */
  private end(unknown: UnknownToVenue, reason: string, found?: string): void {
    const now = this.stampNow();
    const stamp = { ts: now, recvTs: now };
    if (unknown.kind === 'algoOrder') {
      this.options.logger.warn(
        { ...describe(unknown), reason },
        'algo order the venue neither lists nor knows ended CANCELLED',
      );
      this.options.emit({
        kind: 'algoOrder',
        ...stamp,
        algoOrder: unknownAlgoOrderEnded(unknown.algoOrder, now),
      });
      return;
    }
    const order = unknownOrderEnded(unknown.order, reason, now);
    if (found !== undefined) this.options.forgotten(forgottenOrdersWarning([order], now, found));
    this.options.emit({ kind: 'order', ...stamp, order });
  }
}

function newEntry(unknown: UnknownToVenue, since: number): Followed {
  let settled: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    settled = resolve;
  });
  return { unknown, since, notFound: 0, looping: false, wake: () => undefined, done, settled };
}

function keyOf(unknown: UnknownToVenue): string {
  return unknown.kind === 'order' ? orderKey(unknown.order) : `algo ${unknown.algoOrder.clientAlgoOrderId}`;
}

function orderKey(order: Pick<Order, 'clientOrderId' | 'orderId'>): string {
  return `order ${openOrderKey(order)}`;
}

function describe(unknown: UnknownToVenue): Record<string, string> {
  return unknown.kind === 'order'
    ? { clientOrderId: unknown.order.clientOrderId, orderId: unknown.order.orderId, sym: unknown.order.sym }
    : {
        clientAlgoOrderId: unknown.algoOrder.clientAlgoOrderId,
        algoOrderId: unknown.algoOrder.algoOrderId,
        sym: unknown.algoOrder.sym,
      };
}
