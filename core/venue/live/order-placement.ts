import type { Logger } from 'pino';
import type { Order, PlaceOrderIntent } from '../../model/index.ts';
import { VenueError } from '../errors.ts';
import type { TimerPort } from '../timer-port.ts';
import { decodeWire } from '../wire/decode.ts';
import { orderAckWireSchema } from '../wire/order.ts';
import { placeOrderAckDataSchema } from '../wire/place-order-message.ts';
import { PLACE_ORDER_ACK_EVENT, type WsReplyWire } from '../wire/ws-envelope.ts';
import { type OrderEntryRequest, placeOrderRequest } from '../ws/order-entry.ts';
import type { PrivateWsClient } from '../ws/private-ws-client.ts';
import { NotConnectedError } from '../ws/ws-errors.ts';
import { orderFromIntent } from './order-from-intent.ts';

/** What placing orders over the private WebSocket needs from the live execution client. */
export interface OrderPlacementOptions {
  readonly ws: PrivateWsClient;
  /** brokerClientId of the spec's PLACE_ORDER (US equities); empty when none. */
  readonly brokerClientId: string;
  /** Makes a reference (clientOrderId) when an intent has none. */
  readonly newReference: () => string;
  readonly timer: TimerPort;
  readonly logger: Logger;
  /** How often an order whose ack never came is looked up before it is declared unknown. */
  readonly lookupAttempts: number;
  /** Wait between those lookups, ms. */
  readonly lookupSpacingMs: number;
  /** Looks an order up at the venue by clientOrderId (undefined when the venue does not know it). */
  readonly lookupOrder: (sym: string, clientOrderId: string) => Promise<Order | undefined>;
  /** Reports an order update, stamped with the client's time. */
  readonly emitOrder: (order: Order) => void;
}

/**
 * Places orders over the private WebSocket and turns their acks into order updates. An order whose
 * ack never came stays unresolved and is looked up by its clientOrderId, never re-sent; when the
 * venue has no such order it is reported REJECTED.
 */
export class OrderPlacement {
  /** Place orders sent whose outcome is unknown (ack lost), by clientOrderId. */
  private readonly unresolved = new Map<string, PlaceOrderIntent>();

  /** @param options - the WebSocket, references, lookups and where order updates go */
  constructor(private readonly options: OrderPlacementOptions) {}

  /**
   * Sends a place order; a request that cannot be built is reported REJECTED at once.
   * @param intent - the approved place-order intent
   */
  place(intent: PlaceOrderIntent): void {
    let request: OrderEntryRequest;
    try {
      request = placeOrderRequest(intent, this.options.brokerClientId, this.options.newReference);
    } catch (error) {
      this.options.emitOrder(
        orderFromIntent(intent, '', 'REJECTED', this.options.timer.now(), String((error as Error).message)),
      );
      return;
    }
    const sent = { ...intent, ref: request.clientOrderId };
    this.unresolved.set(sent.ref, sent);
    this.options.ws.request(request.action, request.args).then(
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
  }

  /** Looks up again every order whose ack never came (after a reconnect). */
  resolveAllUnacked(): void {
    for (const intent of [...this.unresolved.values()]) void this.resolveUnacked(intent);
  }

  private onPlaceAck(intent: PlaceOrderIntent, reply: WsReplyWire): void {
    if (!this.unresolved.has(intent.ref)) return;
    const now = this.options.timer.now();
    if (reply.event === PLACE_ORDER_ACK_EVENT) {
      const data = decodeWire(placeOrderAckDataSchema, reply.data, 'PLACE_ORDER_ACK', ['data']);
      this.options.emitOrder(orderFromIntent(intent, data.orderNo, data.orderStatus, now));
      return;
    }
    const data = decodeWire(orderAckWireSchema, reply.data, `${reply.event} reply`, ['data']);
    this.options.emitOrder(orderFromIntent(intent, data.orderId, data.orderState ?? 'NEW', now));
  }

  private onPlaceFailure(intent: PlaceOrderIntent, error: unknown): void {
    const now = this.options.timer.now();
    if (error instanceof VenueError || error instanceof NotConnectedError) {
      const reason = error instanceof VenueError ? `${error.code}: ${error.venueMessage}` : error.message;
      this.unresolved.delete(intent.ref);
      this.options.emitOrder(orderFromIntent(intent, '', 'REJECTED', now, reason));
      return;
    }
    this.options.logger.warn(
      { ref: intent.ref, err: String(error) },
      'no ack for a placed order: looking it up',
    );
    void this.resolveUnacked(intent);
  }

  /** Looks an unacked order up by clientOrderId until found or declared never received. */
  private async resolveUnacked(intent: PlaceOrderIntent): Promise<void> {
    const attempts = this.options.lookupAttempts;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) {
        await new Promise<void>((resolve) =>
          this.options.timer.setTimer(resolve, this.options.lookupSpacingMs),
        );
      }
      if (!this.unresolved.has(intent.ref)) return;
      try {
        const order = await this.options.lookupOrder(intent.sym, intent.ref);
        if (!this.unresolved.has(intent.ref)) return;
        if (order !== undefined) {
          this.options.emitOrder(order);
          return;
        }
      } catch (error) {
        this.options.logger.warn({ ref: intent.ref, err: String(error) }, 'order lookup failed; will retry');
        if (attempt === attempts - 1) return; // stays unresolved: the next reconciliation retries it
      }
    }
    if (!this.unresolved.has(intent.ref)) return;
    this.unresolved.delete(intent.ref);
    this.options.emitOrder(
      orderFromIntent(
        intent,
        '',
        'REJECTED',
        this.options.timer.now(),
        'no ack, and the venue has no order with this clientOrderId; not re-sent',
      ),
    );
  }
}
