import type { Logger } from 'pino';
import { LastingLookupFailure } from '../../execution/index.ts';
import { isFinalOrderState, type Order, type PlaceOrderIntent } from '../../model/index.ts';
import { VenueError } from '../errors.ts';
import { monotonicOf, type TimerPort } from '../timer-port.ts';
import { decodeWire } from '../wire/decode.ts';
import { orderAckWireSchema } from '../wire/order.ts';
import { placeOrderAckDataSchema } from '../wire/place-order-message.ts';
import { PLACE_ORDER_ACK_EVENT, type WsReplyWire } from '../wire/ws-envelope.ts';
import { type OrderEntryRequest, placeOrderRequest } from '../ws/order-entry.ts';
import type { LateReply } from '../ws/pending-requests.ts';
import type { PrivateWsClient } from '../ws/private-ws-client.ts';
import { NotConnectedError } from '../ws/ws-errors.ts';
import { CancellableWaits } from './cancellable-waits.ts';
import { orderFromIntent } from './order-from-intent.ts';
import { isOutcomeUnknown } from './outcome-unknown.ts';

/**
 * How an order whose ack never came is looked up by clientOrderId. It stays unresolved (the
 * strategy sees it pending) and is declared REJECTED only when the venue said "no such order"
 * (401018) on at least `minNotFound` lookups and `giveUpMs` after the ack was due. A lookup that
 * failed for good (`LastingLookupFailure`: its answer cannot be decoded, or the venue refuses the
 * query itself) ends the order REJECTED at once, as reconciliation ends an order it cannot look
 * up, since asking again would fail the same way for ever. Any other failed lookup never counts,
 * whether the venue was unreachable or the lookup refused with another code (429, 7000, 40000,
 * ...): such an order is looked up, with the same spacing, until the venue says whether it has it.
 */
export interface UnackedLookupPolicy {
  /** Wait before the second lookup, ms; it doubles after each lookup up to `capMs`. */
  readonly spacingMs: number;
  /** Longest wait between lookups, ms. */
  readonly capMs: number;
  /** Fewest "not found" answers before a verdict. */
  readonly minNotFound: number;
  /** How long the venue may take to book the order before Keel declares it never received, ms. */
  readonly giveUpMs: number;
}

/** What placing orders over the private WebSocket needs from the live execution client. */
export interface OrderPlacementOptions {
  readonly ws: PrivateWsClient;
  /** brokerClientId of the spec's PLACE_ORDER (US equities); empty when none. */
  readonly brokerClientId: string;
  /** Makes a reference (clientOrderId) when an intent has none. */
  readonly newReference: () => string;
  /**
   * The venue's time (how long an unacked order has been looked up, on its monotonic reading when
   * it has one) and the client's timers.
   */
  readonly timer: TimerPort;
  /**
   * What the orders it reports are stamped with (the client's event clock, see
   * `LiveExecutionOptions.eventClock`); default `timer.now`.
   */
  readonly stampNow?: () => number;
  readonly logger: Logger;
  /** How unacked orders are looked up before Keel declares them never received. */
  readonly lookups: UnackedLookupPolicy;
  /**
   * Looks an order up at the venue by clientOrderId (undefined when the venue does not know it);
   * throws `LastingLookupFailure` when asking again will not help.
   */
  readonly lookupOrder: (sym: string, clientOrderId: string) => Promise<Order | undefined>;
  /** Reports an order update, stamped with the client's time. */
  readonly emitOrder: (order: Order) => void;
}

/**
 * Places orders over the private WebSocket and turns their acks into order updates. An order whose
 * ack never came stays unresolved and is looked up by its clientOrderId with a growing backoff,
 * never re-sent; only when the venue still has no such order after the policy's time, or its lookup
 * failed for good, is it reported REJECTED, marked `synthesized` so a later venue update of it
 * supersedes the verdict.
 */
export class OrderPlacement {
  /** Place orders sent whose outcome is unknown (ack lost), by clientOrderId. */
  private readonly unresolved = new Map<string, PlaceOrderIntent>();
  /** Lookups under way: clientOrderId -> wakes the lookup from its backoff wait. */
  private readonly lookingUp = new Map<string, () => void>();
  /** Told once an unresolved order's outcome is known (true) or the placement stopped (false), by clientOrderId. */
  private readonly outcomeWaiters = new Map<string, ((known: boolean) => void)[]>();
  private readonly waits: CancellableWaits;
  private stopped = false;

  /** What the orders it reports are stamped with. */
  private readonly stampNow: () => number;

  /** @param options - the WebSocket, references, lookups and where order updates go */
  constructor(private readonly options: OrderPlacementOptions) {
    this.stampNow = options.stampNow ?? (() => options.timer.now());
    this.waits = new CancellableWaits(options.timer);
  }

  /**
   * Sends a place order; a request that cannot be built is reported REJECTED at once.
   * @param intent - the approved place-order intent
   * @returns when the venue answered the request or it failed (its order reported, or looked up)
   */
  place(intent: PlaceOrderIntent): Promise<void> {
    let request: OrderEntryRequest;
    try {
      request = placeOrderRequest(intent, this.options.brokerClientId, this.options.newReference);
    } catch (error) {
      this.options.emitOrder(
        orderFromIntent(intent, '', 'REJECTED', this.stampNow(), String((error as Error).message)),
      );
      return Promise.resolve();
    }
    const sent = { ...intent, ref: request.clientOrderId };
    this.unresolved.set(sent.ref, sent);
    return this.options.ws
      .request(request.action, request.args, { onLateReply: (late) => this.onLateReply(sent, late) })
      .then(
        (reply) => this.onPlaceAck(sent, reply),
        (error: unknown) => this.onPlaceFailure(sent, error),
      );
  }

  /**
   * An order update arrived for this clientOrderId: its outcome is known.
   * @param clientOrderId - the order's reference
   */
  settle(clientOrderId: string): void {
    this.unresolved.delete(clientOrderId);
    const waiters = this.outcomeWaiters.get(clientOrderId);
    if (waiters === undefined) return;
    this.outcomeWaiters.delete(clientOrderId);
    for (const told of waiters) told(true);
  }

  /**
   * @param clientOrderIds - the orders a command acts on
   * @returns those whose place the venue has not answered yet (ack lost, looked up), in the
   *   order given; none when the venue knows every one
   */
  unacknowledged(clientOrderIds: readonly string[]): string[] {
    return clientOrderIds.filter((ref) => this.unresolved.has(ref));
  }

  /**
   * Waits until the venue's first word on each of these orders that it has not acknowledged yet
   * (its ack, an update, or Keel's verdict after lookups): a cancel or amendment reaching the
   * venue before its order would be refused as unknown, and the order would then go live with
   * nobody acting on it.
   * @param clientOrderIds - the orders a command acts on
   * @returns undefined when every one is already known to the venue (nothing to wait for);
   *   else settles true once all are, false when the placement stopped first
   */
  outcomesKnown(clientOrderIds: readonly string[]): Promise<boolean> | undefined {
    const waiting = this.unacknowledged(clientOrderIds);
    if (waiting.length === 0) return undefined;
    if (this.stopped) return Promise.resolve(false);
    return Promise.all(
      waiting.map(
        (ref) =>
          new Promise<boolean>((resolve) => {
            const waiters = this.outcomeWaiters.get(ref);
            if (waiters === undefined) this.outcomeWaiters.set(ref, [resolve]);
            else waiters.push(resolve);
          }),
      ),
    ).then((known) => known.every(Boolean));
  }

  /** Looks up again, at once, every order whose ack never came (after a reconnect). */
  resolveAllUnacked(): void {
    for (const intent of [...this.unresolved.values()]) {
      const wake = this.lookingUp.get(intent.ref);
      if (wake === undefined) void this.resolveUnacked(intent);
      else wake();
    }
  }

  /** Stops every lookup under way (the client is stopping). */
  stop(): void {
    this.stopped = true;
    this.waits.cancelAll();
    for (const wake of this.lookingUp.values()) wake();
    const waiters = [...this.outcomeWaiters.values()].flat();
    this.outcomeWaiters.clear();
    for (const told of waiters) told(false);
  }

  /**
   * The venue answered a place after its reply timed out, while the order is looked up: its ack or
   * refusal is the venue's own word, taken as if it had come in time (a refusal ends the order
   * REJECTED with the venue's code, not Keel's verdict after the lookups), and the lookups end.
   * Ignored once the order's outcome is known.
   */
  private onLateReply(intent: PlaceOrderIntent, late: LateReply): void {
    if (!this.unresolved.has(intent.ref)) return;
    this.options.logger.info(
      { ref: intent.ref, clientOrderId: intent.ref, sym: intent.sym },
      "the venue answered a placed order after its reply timed out: taking the venue's answer",
    );
    if ('reply' in late) this.onPlaceAck(intent, late.reply);
    else this.onPlaceFailure(intent, late.refusal);
    // Settled now (its order reported): the lookup loop, woken from its wait, ends without asking.
    if (!this.unresolved.has(intent.ref)) this.lookingUp.get(intent.ref)?.();
  }

  private onPlaceAck(intent: PlaceOrderIntent, reply: WsReplyWire): void {
    if (!this.unresolved.has(intent.ref)) return;
    const now = this.stampNow();
    let order: Order;
    try {
      if (reply.event === PLACE_ORDER_ACK_EVENT) {
        const data = decodeWire(placeOrderAckDataSchema, reply.data, 'PLACE_ORDER_ACK', ['data']);
        order = orderFromIntent(intent, data.orderNo, data.orderStatus, now);
      } else {
        const data = decodeWire(orderAckWireSchema, reply.data, `${reply.event} reply`, ['data']);
        order = orderFromIntent(intent, data.orderId, data.orderState ?? 'NEW', now);
      }
    } catch (error) {
      // The venue answered, so the order is probably live: an ack Keel cannot read is a lost ack.
      this.options.logger.warn(
        { ref: intent.ref, clientOrderId: intent.ref, sym: intent.sym, err: String(error) },
        'unreadable ack for a placed order: looking it up',
      );
      void this.resolveUnacked(intent);
      return;
    }
    // Built from the intent and stamped on receipt (the ack carries no time): marked so that the
    // venue's own update of the order, stamped earlier than this receipt, still ranks above it.
    this.options.emitOrder(isFinalOrderState(order.orderState) ? order : { ...order, synthesized: true });
  }

  /**
   * Not sent (socket down) or refused by the venue: REJECTED. Anything else (no ack, the
   * connection lost after sending, a failure on the venue's side such as 40000) may have left the
   * order live, so it is looked up.
   */
  private onPlaceFailure(intent: PlaceOrderIntent, error: unknown): void {
    const now = this.stampNow();
    if (error instanceof NotConnectedError || (error instanceof VenueError && !isOutcomeUnknown(error))) {
      const reason = error instanceof VenueError ? `${error.code} ${error.venueMessage}` : error.message;
      this.unresolved.delete(intent.ref);
      this.options.emitOrder(orderFromIntent(intent, '', 'REJECTED', now, reason));
      return;
    }
    this.options.logger.warn(
      { ref: intent.ref, clientOrderId: intent.ref, sym: intent.sym, err: String(error) },
      'no usable ack for a placed order: looking it up',
    );
    void this.resolveUnacked(intent);
  }

  /**
   * Looks an unacked order up by clientOrderId, with a growing backoff, until the venue reports it
   * or the policy declares it never received. One lookup loop runs per order.
   */
  private async resolveUnacked(intent: PlaceOrderIntent): Promise<void> {
    if (this.lookingUp.has(intent.ref)) return;
    const policy = this.options.lookups;
    const timer = this.options.timer;
    const since = monotonicOf(timer);
    let spacing = policy.spacingMs;
    let notFound = 0;
    let wake: () => void = () => undefined;
    this.lookingUp.set(intent.ref, () => wake());
    try {
      for (let attempt = 0; ; attempt++) {
        if (attempt > 0) {
          if (this.stopped) return;
          const wait = this.waits.wait(spacing);
          wake = wait.wake;
          await wait.done;
          spacing = Math.min(spacing * 2, policy.capMs);
        }
        if (this.stopped || !this.unresolved.has(intent.ref)) return;
        let order: Order | undefined;
        try {
          order = await this.options.lookupOrder(intent.sym, intent.ref);
        } catch (error) {
          if (error instanceof LastingLookupFailure) {
            if (this.unresolved.has(intent.ref)) this.declareUnreadable(intent, error);
            return;
          }
          // Unreachable, or the lookup itself refused (rate limit, nonce, system error,
          // permission): none says the venue has no such order, and the order may be live, so it
          // is looked up again and never counts toward the verdict.
          this.options.logger.warn(
            { ref: intent.ref, clientOrderId: intent.ref, sym: intent.sym, err: String(error) },
            'order lookup failed; will retry',
          );
          continue;
        }
        if (!this.unresolved.has(intent.ref)) return;
        if (order !== undefined) {
          this.options.emitOrder(order);
          return;
        }
        notFound++;
        const waited = monotonicOf(timer) - since;
        if (notFound >= policy.minNotFound && waited >= policy.giveUpMs) {
          this.declareNeverReceived(intent, notFound, waited);
          return;
        }
      }
    } finally {
      this.lookingUp.delete(intent.ref);
    }
  }

  /** Its lookup failed for good (logged at error by the lookup): ended once, never looked up again. */
  private declareUnreadable(intent: PlaceOrderIntent, failure: LastingLookupFailure): void {
    this.unresolved.delete(intent.ref);
    const reason =
      `no ack, and ${failure.message}; ended as never acknowledged, not re-sent (synthesized by ` +
      'Keel: a later venue update of this order supersedes it)';
    this.options.emitOrder({
      ...orderFromIntent(intent, '', 'REJECTED', this.stampNow(), reason),
      synthesized: true,
    });
  }

  private declareNeverReceived(intent: PlaceOrderIntent, lookups: number, waitedMs: number): void {
    this.unresolved.delete(intent.ref);
    const reason =
      `no ack, and the venue still had no order with clientOrderId ${intent.ref} after ` +
      `${lookups} lookups over ${Math.round(waitedMs / 1000)} s; not re-sent (synthesized by Keel: ` +
      'a later venue update of this order supersedes it)';
    this.options.logger.warn(
      { ref: intent.ref, clientOrderId: intent.ref, sym: intent.sym, lookups, waitedMs },
      'unacked order declared never received',
    );
    this.options.emitOrder({
      ...orderFromIntent(intent, '', 'REJECTED', this.stampNow(), reason),
      synthesized: true,
    });
  }
}
