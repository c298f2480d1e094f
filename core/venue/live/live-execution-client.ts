import { randomUUID } from 'node:crypto';
import { type Logger, pino } from 'pino';
import { type Observable, Subject, type Subscription } from 'rxjs';
import { type ExecutionPort, reconcile, type VenueSnapshot } from '../../execution/index.ts';
import type { Order, StrategyIntent, UserEvent } from '../../model/index.ts';
import type { ApprovedIntent } from '../../risk/index.ts';
import { RequestRuleError, VenueError } from '../errors.ts';
import { orderFromWire } from '../mapping/order-mapping.ts';
import {
  accountFromWire,
  algoOrderFromWire,
  assetFromWire,
  positionFromWire,
} from '../mapping/user-data-mapping.ts';
import type { VenueRestClient } from '../rest/rest-client.ts';
import { realTimer, type TimerPort } from '../timer-port.ts';
import {
  cancelOrderRequest,
  cancelOrdersRequest,
  type OrderEntryRequest,
  replaceOrderRequest,
} from '../ws/order-entry.ts';
import type { PrivateWsClient } from '../ws/private-ws-client.ts';
import { NotConnectedError } from '../ws/ws-errors.ts';
import { LocalTradingView } from './local-trading-view.ts';
import { OrderPlacement } from './order-placement.ts';
import { runRestCommand } from './rest-commands.ts';

/** Options of the live execution client. */
export interface LiveExecutionOptions {
  readonly rest: VenueRestClient;
  readonly ws: PrivateWsClient;
  /** brokerClientId of the spec's PLACE_ORDER (US equities). */
  readonly brokerClientId?: string;
  readonly timer?: TimerPort;
  /** Makes a reference (clientOrderId) when an intent has none; default a UUID. */
  readonly newReference?: () => string;
  /** How often an order whose ack never came is looked up before it is declared unknown. Default 3. */
  readonly lookupAttempts?: number;
  /** Wait between those lookups, ms. Default 500. */
  readonly lookupSpacingMs?: number;
  readonly logger?: Logger;
}

/**
 * The live venue behind the execution port: WebSocket order entry (PLACE_ORDER for US equities,
 * the lower-case actions for crypto), REST for algo orders, close position(s), loans and position
 * mode, the User Data stream as events, and reconciliation after every (re)connect. An order
 * whose ack never came is looked up by its clientOrderId, never re-sent.
 */
export class LiveExecutionClient implements ExecutionPort {
  private readonly subject = new Subject<UserEvent>();
  private readonly localView = new LocalTradingView();
  private readonly placement: OrderPlacement;
  private readonly timer: TimerPort;
  private readonly logger: Logger;
  private readonly subscriptions: Subscription[] = [];

  /** @param options - the REST and WebSocket clients and policies */
  constructor(private readonly options: LiveExecutionOptions) {
    this.timer = options.timer ?? realTimer();
    this.logger = options.logger ?? pino({ name: 'keel.venue.live', level: 'warn' });
    this.placement = new OrderPlacement({
      ws: options.ws,
      brokerClientId: options.brokerClientId ?? '',
      newReference: options.newReference ?? (() => randomUUID()),
      timer: this.timer,
      logger: this.logger,
      lookupAttempts: options.lookupAttempts ?? 3,
      lookupSpacingMs: options.lookupSpacingMs ?? 500,
      lookupOrder: (sym, clientOrderId) => this.lookupOrder(sym, clientOrderId),
      emitOrder: (order) => this.emitOrder(order),
    });
    this.subscriptions.push(
      options.ws.userEvents.subscribe((event) => this.emit(event)),
      options.ws.connection.subscribe((event) => {
        if (event.kind === 'loggedIn') void this.reconcile();
      }),
    );
  }

  /** User Data events: the venue's pushes, acks, refusals and reconciliation corrections. */
  get events(): Observable<UserEvent> {
    return this.subject.asObservable();
  }

  /**
   * Connects the private WebSocket; reconciliation runs after this and every later login.
   * @returns when logged in
   */
  start(): Promise<void> {
    return this.options.ws.connect();
  }

  /** Stops: closes the WebSocket and completes the event stream. @returns when closed */
  async stop(): Promise<void> {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    await this.options.ws.close();
    this.subject.complete();
  }

  /** @param command - an approved intent */
  submit(command: ApprovedIntent): void {
    const intent = command.intent;
    switch (intent.kind) {
      case 'placeOrder':
        this.placement.place(intent);
        return;
      case 'modifyOrder':
        this.orderAction(
          command,
          () => replaceOrderRequest(intent),
          () => this.options.rest.replaceOrder(replaceOrderRequest(intent).args),
        );
        return;
      case 'cancelOrder':
        this.orderAction(
          command,
          () => cancelOrderRequest(intent),
          () => this.options.rest.cancelOrder({ clientOrderId: intent.target, sym: intent.sym }),
        );
        return;
      case 'cancelOrders':
        this.orderAction(
          command,
          () => cancelOrdersRequest(intent),
          () => this.options.rest.cancelAllOrders(cancelOrdersRequest(intent).args),
        );
        return;
      default:
        runRestCommand(
          this.options.rest,
          command,
          (event) => this.emit(event),
          () => this.timer.now(),
        ).catch((error: unknown) => this.rejectCommand(command, error));
    }
  }

  /**
   * @param _sym - the order's sym (the REST query needs only the clientOrderId)
   * @param clientOrderId - the reference the order was sent with
   * @returns the venue's order, or undefined when the venue answers 401018 (order not found)
   */
  async lookupOrder(_sym: string, clientOrderId: string): Promise<Order | undefined> {
    try {
      return orderFromWire(await this.options.rest.getOrder({ clientOrderId }));
    } catch (error) {
      if (error instanceof VenueError && error.code === 401018) return undefined;
      throw error;
    }
  }

  /** @returns open orders, open algo orders, non-zero positions, assets and the account */
  async snapshot(): Promise<VenueSnapshot> {
    const rest = this.options.rest;
    const [orders, algoOrders, positions, account] = await Promise.all([
      rest.getOpenOrders(),
      rest.getOpenAlgoOrders(),
      rest.getPositions({ ignoreZero: true }),
      rest.getTradingAccount(),
    ]);
    return {
      ts: this.timer.now(),
      openOrders: orders.map(orderFromWire),
      openAlgoOrders: algoOrders.map(algoOrderFromWire),
      positions: positions.map(positionFromWire),
      assets: (account.assets ?? []).map(assetFromWire),
      account: accountFromWire(account),
    };
  }

  /**
   * Polls the ADL rank signals (GET /api/v1/adl/rank; the venue pushes none) and reports one
   * event per position.
   * @param sym - only this pair; all non-zero positions when omitted
   * @returns when the events were emitted
   * @throws VenueError 401011 when the sym is not supported for ADL monitoring
   */
  async refreshAdlRank(sym?: string): Promise<void> {
    const entries = await this.options.rest.getAdlRank(sym === undefined ? {} : { sym });
    const now = this.timer.now();
    for (const entry of entries) {
      this.emit({
        kind: 'adlRank',
        ts: now,
        recvTs: now,
        sym: entry.sym,
        positionId: entry.positionId,
        positionSide: entry.positionSide,
        rank: entry.adlRank,
      });
    }
  }

  /** Keeps the local view reconciliation compares with the venue's, then passes the event on. */
  private emit(event: UserEvent): void {
    if (event.kind === 'order') this.placement.settle(event.order.clientOrderId);
    this.localView.observe(event);
    this.subject.next(event);
  }

  private emitOrder(order: Order): void {
    const now = this.timer.now();
    this.emit({ kind: 'order', ts: now, recvTs: now, order });
  }

  private orderAction(
    command: StrategyIntent,
    build: () => OrderEntryRequest,
    viaRest: () => Promise<unknown>,
  ): void {
    let request: OrderEntryRequest;
    try {
      request = build();
    } catch (error) {
      this.rejectCommand(command, error);
      return;
    }
    this.options.ws.request(request.action, request.args).catch((error: unknown) => {
      // Cancels and amendments are safe to send again over REST when the socket is down.
      if (error instanceof NotConnectedError)
        return viaRest().catch((restError: unknown) => this.rejectCommand(command, restError));
      this.rejectCommand(command, error);
    });
  }

  private rejectCommand(command: StrategyIntent, error: unknown): void {
    const now = this.timer.now();
    const code = error instanceof VenueError ? error.code : error instanceof RequestRuleError ? 400001 : -1;
    const message = error instanceof Error ? error.message : String(error);
    this.logger.warn(
      { ref: command.intent.ref, kind: command.intent.kind, code, message },
      'venue refused a command',
    );
    this.emit({
      kind: 'commandRejected',
      ts: now,
      recvTs: now,
      ref: command.intent.ref,
      intentKind: command.intent.kind,
      code,
      message,
    });
  }

  /**
   * After a (re)connect: the execution folder's reconciliation (snapshot vs. local view ->
   * corrective events, vanished orders looked up), then the orders whose ack never came.
   */
  private async reconcile(): Promise<void> {
    try {
      const snapshot = await this.snapshot();
      for (const event of await reconcile(this.localView.state(), snapshot, this)) this.emit(event);
      this.placement.resolveAllUnacked();
    } catch (error) {
      this.logger.error({ err: String(error) }, 'reconciliation after (re)connect failed');
    }
  }
}
