import { randomUUID } from 'node:crypto';
import { type Logger, pino } from 'pino';
import { type Observable, Subject, type Subscription } from 'rxjs';
import type { ExecutionPort, LocalTradingState, VenueSnapshot } from '../../execution/index.ts';
import {
  type AlgoOrder,
  type AlgoOrderUpdateEvent,
  type CancelOrdersIntent,
  COMMAND_NOT_APPLIED,
  type Order,
  type StrategyIntent,
  showsNoOpenOrder,
  type UserEvent,
  VENUE_ORDER_NOT_FOUND,
  type VenueStatus,
} from '../../model/index.ts';
import type { ApprovedIntent } from '../../risk/index.ts';
import { VenueError } from '../errors.ts';
import type { NamedOrder } from '../mapping/order-mapping.ts';
import { realTimer, type TimerPort } from '../timer-port.ts';
import { StreamStatus } from '../ws/stream-status.ts';
import { ClientClosedError } from '../ws/ws-errors.ts';
import { lookUpAlgoOrder } from './algo-order-lookup.ts';
import { CancellableWaits } from './cancellable-waits.ts';
import { commandRejection } from './command-rejection.ts';
import { ConcurrentCloses } from './concurrent-closes.ts';
import { FillsWithoutOrder } from './fills-without-order.ts';
import { FiredAlgoOrders } from './fired-algo-orders.ts';
import { DEFAULT_HELD_COMMAND_WAIT_MS, HeldOrderActions } from './held-order-actions.ts';
import { intentLogFields } from './intent-log-fields.ts';
import type { LiveExecutionOptions } from './live-execution-options.ts';
import { LoanReadOrder } from './loan-read-order.ts';
import { LocalTradingView } from './local-trading-view.ts';
import { LookupCatchUp } from './lookup-catch-up.ts';
import { DEFAULT_LOST_REPLY_LOOKUPS, resolveLostReply } from './lost-reply-resolution.ts';
import { DEFAULT_EXECUTION_CATCH_UP, ExecutionCatchUp } from './missed-executions.ts';
import { ModifiesHeldForLookups } from './modifies-held-for-lookups.ts';
import { NewestPositionReports } from './newest-position-reports.ts';
import { type OrderActionIntent, sendOrderAction } from './order-actions.ts';
import { orderFromIntent } from './order-from-intent.ts';
import { lookUpOrder } from './order-lookup.ts';
import { OrderPlacement } from './order-placement.ts';
import { isOutcomeUnknown } from './outcome-unknown.ts';
import { OwnPortfolio } from './own-portfolio.ts';
import { reconciliationReport } from './reconciliation-report.ts';
import { DEFAULT_RECONCILIATION_RETRY, ReconciliationRuns } from './reconciliation-runs.ts';
import { refusalLogLevel, refusalLogMessage } from './refusal-log-level.ts';
import { runRestCommand } from './rest-commands.ts';
import { type PartRefusal, splitCancelRefusal } from './split-cancel-refusal.ts';
import { SymCommandOrder } from './sym-command-order.ts';
import { UnknownOrderLookups } from './unknown-order-lookups.ts';
import { VenueLoanReads } from './venue-loan-reads.ts';
import { venueSnapshot } from './venue-snapshot.ts';

/** What a reconciliation warning kept for the session's result is about. */
type ReconciliationWarningKind =
  | 'forgotten'
  | 'unfetchedFills'
  | 'leftOutExecutions'
  | 'unownedFills'
  | 'unknownBalances';

/**
 * The live venue behind the execution port: WebSocket order entry (PLACE_ORDER for US equities,
 * the lower-case actions for crypto), REST for algo orders, close position(s), loans and position
 * mode, the User Data stream as events, and reconciliation after every (re)connect (retried
 * with backoff when it fails; a push newer than its snapshot is never overwritten). An order
 * whose ack never came is looked up by its clientOrderId, never re-sent; so is, with the same
 * policy, one acknowledged (or an algo order) that a reconciliation or a refused modify or cancel
 * found unknown to the venue, before it is ended ({@link UnknownOrderLookups}); its modifies are
 * held meanwhile. Fills made while the
 * socket was down are fetched after the reconnect and reported once each, before the order states
 * that depend on them; a duplicate push is dropped while the execution is remembered (the
 * catch-up window), and the kernel's own de-duplication catches an older one. Each liquidation
 * node pushed is followed by a read of the loans (a liquidation repays them on its own). Of the
 * loan reads, a late reply is dropped once a read sent after it was applied (see
 * {@link LoanReadOrder}). Commands on a sym reach the venue in the order submitted, across the
 * socket and REST ({@link SymCommandOrder}).
 */
export class LiveExecutionClient implements ExecutionPort {
  private readonly subject = new Subject<UserEvent>();
  private readonly localView: LocalTradingView;
  private readonly positionReports = new NewestPositionReports();
  /** The account's portfolio: a main account's connection also carries its sub-portfolios' liquidation orders. */
  private readonly ownPortfolio = new OwnPortfolio();
  private readonly firedAlgos = new FiredAlgoOrders();
  private readonly closesInFlight = new ConcurrentCloses();
  /** Commands on a sym reach the venue in the order submitted, across the socket and REST. */
  private readonly commandOrder: SymCommandOrder;
  private readonly placement: OrderPlacement;
  /** Acknowledged orders and algo orders a reconciliation found unknown to the venue, looked up again. */
  private readonly unknownOrders: UnknownOrderLookups;
  /** Modifies of orders the venue said it does not know, held while those orders are looked up. */
  private readonly modifiesHeld: ModifiesHeldForLookups;
  /** Modifies and cancels held until the venue acknowledged their orders (at most `heldCommandWaitMs`). */
  private readonly heldActions: HeldOrderActions;
  /**
   * How long a modify or cancel of an order the venue has not acknowledged waits for that before it
   * is sent anyway, in ms: `LiveExecutionOptions.heldCommandWaitMs`, or the default (10 s).
   */
  readonly heldCommandWaitMs: number;
  /** Fills that came without any update of their order, whose order is looked up after a while. */
  private readonly fillsWithoutOrder: FillsWithoutOrder;
  private readonly timer: TimerPort;
  /**
   * The venue's time (its replies' clock, shared with the private socket): what catch-up windows
   * and lookups' waits are measured on.
   */
  private readonly venueNow: () => number;
  /**
   * What the events the client makes itself are stamped with (`LiveExecutionOptions.eventClock`,
   * default {@link LiveExecutionClient.venueNow}), so they sort among the venue's own on a venue
   * whose clock is off the machine's instead of ahead of (or behind) them.
   */
  private readonly eventNow: () => number;
  private readonly logger: Logger;
  private readonly subscriptions: Subscription[] = [];
  private readonly catchUp: ExecutionCatchUp;
  private readonly reconciliations: ReconciliationRuns;
  /** Lookups' answers ahead of the view, and the periodic reconciliation, reconcile. */
  private readonly lookupCatchUp: LookupCatchUp;
  /** The reconciliation after the first login, which {@link LiveExecutionClient.start} awaits. */
  private firstReconciliation: Promise<void> | undefined;
  /** References of the orders placed while the executions on the venue were not yet noted. */
  private readonly placedBeforePrimed = new Set<string>();
  private readonly privateStatus: StreamStatus;
  /** What the reconciliations warned of, in the order it came, for the session's result. */
  private readonly warnings: { readonly kind: ReconciliationWarningKind; readonly text: string }[] = [];
  private readonly loanReads: VenueLoanReads;
  /** The order of every loan read (after a liquidation, a borrow or repay, a lost reply, at the end). */
  private readonly loanReadOrder = new LoanReadOrder();
  /** Set by {@link LiveExecutionClient.stop}: a start still on its way goes no further. */
  private stopped = false;
  /** The waits between the lookups of lost REST replies, cancelled by {@link LiveExecutionClient.stop}. */
  private readonly lostReplyWaits: CancellableWaits;

  /** @param options - the REST and WebSocket clients and policies */
  constructor(private readonly options: LiveExecutionOptions) {
    this.timer = options.timer ?? realTimer();
    this.lostReplyWaits = new CancellableWaits(this.timer);
    this.venueNow = () => options.rest.serverClock.now();
    this.eventNow = options.eventClock ?? this.venueNow;
    // The view forgets the executions no catch-up can list any more, so a long session's memory stays bounded.
    this.localView = new LocalTradingView(this.venueNow, () => this.catchUp.oldestNeeded());
    this.logger = options.logger ?? pino({ name: 'keel.venue.live', level: 'warn' });
    this.privateStatus = new StreamStatus('private', this.eventNow);
    this.commandOrder = new SymCommandOrder({
      notSent: (command, reason) => this.notSent(command, reason),
      logger: this.logger,
    });
    this.loanReads = new VenueLoanReads({
      rest: options.rest,
      now: this.eventNow,
      localLoans: () => this.localView.state().loans ?? [],
      emit: (event) => this.emit(event),
      order: this.loanReadOrder,
      logger: this.logger,
    });
    this.catchUp = new ExecutionCatchUp(
      options.rest,
      this.localView,
      { ...DEFAULT_EXECUTION_CATCH_UP, ...options.executionCatchUp },
      this.logger,
      (clientOrderId) => this.placedBeforePrimed.has(clientOrderId),
      this.venueNow,
    );
    const lookups = {
      minNotFound: options.lookupAttempts ?? 3,
      spacingMs: options.lookupSpacingMs ?? 500,
      capMs: options.lookupBackoffCapMs ?? 5_000,
      giveUpMs: options.unackedGiveUpMs ?? 30_000,
    };
    // The give-up time is measured on the venue's time, waiting on the client's timer. The venue's
    // time has no monotonic reading (ServerClock's estimate rides on the wall clock, at the venue's
    // stated rate, re-learnt from its replies), so a wall step still moves these give-ups.
    const venueTimer: TimerPort = { now: this.venueNow, setTimer: (fn, ms) => this.timer.setTimer(fn, ms) };
    this.unknownOrders = new UnknownOrderLookups({
      policy: lookups,
      timer: venueTimer,
      stampNow: this.eventNow,
      lookupOrder: (order) => this.lookUpOnly(order.sym, order.clientOrderId, order.orderId),
      lookupAlgoOrder: (algoOrder) => this.lookupAlgoOrder(algoOrder),
      emit: (event) => this.emit(event),
      forgotten: (warning) => this.warnForgotten(warning),
      logger: this.logger,
    });
    this.fillsWithoutOrder = new FillsWithoutOrder({
      timer: venueTimer,
      stampNow: this.eventNow,
      lookupOrder: (fill) => this.lookUpOnly(fill.sym, fill.clientOrderId, fill.orderId),
      emit: (event) => this.emit(event),
      unowned: (warning) => this.warnUnownedFill(warning),
      attempts: lookups.minNotFound,
      spacingMs: lookups.spacingMs,
      logger: this.logger,
    });
    this.placement = new OrderPlacement({
      ws: options.ws,
      brokerClientId: options.brokerClientId ?? '',
      newReference: options.newReference ?? (() => randomUUID()),
      // The give-up time is measured on the venue's time, which moves only with the estimate; it
      // waits on the client's timer. The orders it reports are stamped on the event clock.
      timer: venueTimer,
      stampNow: this.eventNow,
      logger: this.logger,
      lookups,
      lookupOrder: (sym, clientOrderId) => this.lookupOrder(sym, clientOrderId),
      emitOrder: (order) => this.emitOrder(order),
    });
    this.modifiesHeld = new ModifiesHeldForLookups(this.logger);
    this.heldCommandWaitMs = options.heldCommandWaitMs ?? DEFAULT_HELD_COMMAND_WAIT_MS;
    this.heldActions = new HeldOrderActions({
      placement: this.placement,
      timer: this.timer,
      waitMs: this.heldCommandWaitMs,
      logger: this.logger,
    });
    this.reconciliations = new ReconciliationRuns({
      view: this.localView,
      catchUp: this.catchUp,
      snapshot: () => this.snapshot(),
      lookupOrder: (sym, clientOrderId, orderId) => this.lookUpOnly(sym, clientOrderId, orderId),
      lookupAlgoOrder: (algoOrder) => this.lookupAlgoOrder(algoOrder),
      keepUnknownOpen: (unknown) => this.unknownOrders.keepOpen(unknown),
      emitCorrection: (event) => this.emit(event, 'correction'),
      afterReconciliation: () => this.placement.resolveAllUnacked(),
      reconciled: (corrections, before) => this.reconciled(corrections, before),
      stillStale: (reason) => this.stillStale(reason),
      forgotten: (warning) => this.warnForgotten(warning),
      unfetchedFills: (warning) => this.warnUnfetchedFills(warning),
      leftOutExecutions: (warning) => this.warnLeftOutExecutions(warning),
      timer: this.timer,
      retry: { ...DEFAULT_RECONCILIATION_RETRY, ...options.reconciliationRetry },
      logger: this.logger,
    });
    this.lookupCatchUp = new LookupCatchUp({
      view: this.localView,
      reconcile: () => this.reconciliations.request().catch(() => undefined),
      reconciled: () => this.privateStatus.current === 'reconciled',
      timer: this.timer,
      everyMs: options.reconcileEveryMs ?? 0,
      logger: this.logger,
    });
    this.subscriptions.push(
      options.ws.userEvents.subscribe((event) => this.passOn(event)),
      options.ws.unknownStateOrders.subscribe((order) => this.lookUpUnknownState(order)),
      options.ws.connection.subscribe((event) => {
        if (event.kind === 'dropped') {
          this.privateStatus.set('down', event.reason);
          return;
        }
        this.privateStatus.set('up');
        const reconciliation = this.reconciliations.request();
        // A failure is logged and retried by the runs; only start() waits on the first one.
        reconciliation.catch(() => undefined);
        this.firstReconciliation ??= reconciliation;
      }),
    );
  }

  /** User Data events: the venue's pushes, acks, refusals and reconciliation corrections. */
  get events(): Observable<UserEvent> {
    return this.subject.asObservable();
  }

  /**
   * The private stream's connection changes: `down` when the socket dropped, `up` at each login,
   * `reconciled` when the reconciliation after it finished with nothing newer asked for (so Keel's
   * orders and positions are the venue's again). Emitted in order with {@link events}: the
   * corrections of a reconciliation come before its `reconciled`.
   */
  get status(): Observable<VenueStatus> {
    return this.privateStatus.changes;
  }

  /**
   * Warnings of the reconciliations that found orders the venue had acknowledged but no longer
   * knows (each also logged at error): the venue lost state, so Keel's record of the session may
   * not match it.
   */
  get forgottenOrderWarnings(): readonly string[] {
    return this.warningsOf('forgotten');
  }

  /**
   * Warnings of the reconciliations that reported order states without the fills they depend on
   * (each also logged at warn): the execution catch-up kept failing past the hold
   * (`reconciliationRetry.holdMs`), so those fills are missing from Keel's record unless a later
   * catch-up fetched them.
   */
  get unfetchedFillWarnings(): readonly string[] {
    return this.warningsOf('unfetchedFills');
  }

  /**
   * Warnings of the execution catch-ups that left out rows Keel could not decode (each also
   * logged at warn, and counted malformed), naming the rows by transactionId and order where
   * readable, each row once: Keel reports no fill for them, so its record may miss fills.
   */
  get leftOutExecutionWarnings(): readonly string[] {
    return this.warningsOf('leftOutExecutions');
  }

  /**
   * Fills that came without any update of their order, whose order the venue could not name after
   * lookups (each also logged at warn): no strategy was told of them (see {@link FillsWithoutOrder}).
   */
  get unownedFillWarnings(): readonly string[] {
    return this.warningsOf('unownedFills');
  }

  /**
   * Every warning of the reconciliations, in the order they came: {@link forgottenOrderWarnings},
   * {@link unfetchedFillWarnings}, {@link leftOutExecutionWarnings} and
   * {@link unownedFillWarnings}, for the session's result.
   */
  get reconciliationWarnings(): readonly string[] {
    return this.warnings.map((warning) => warning.text);
  }

  /**
   * Notes the executions already on the venue (they predate the session and are never reported),
   * connects the private WebSocket, and reconciles: the venue's open orders, algo orders,
   * positions, assets and account are emitted as events before this resolves, so a caller that
   * subscribed to {@link LiveExecutionClient.events} first holds the venue's state (this is the
   * session's one startup reconciliation). Reconciliation runs again after every later login.
   * A {@link stop} that came while it was on its way wins: it neither connects nor reconciles then.
   * @returns when logged in and reconciled
   * @throws the login's error, or the first reconciliation's (its snapshot failed; it is retried);
   *   ClientClosedError when stopped meanwhile
   */
  async start(): Promise<void> {
    await this.catchUp.prime();
    if (this.stopped) throw new ClientClosedError('execution client');
    await this.options.ws.connect();
    if (this.stopped) throw new ClientClosedError('execution client');
    await (this.firstReconciliation ?? this.reconciliations.request());
    this.lookupCatchUp.start();
  }

  /**
   * Stops: closes the WebSocket and completes the event stream.
   * @param withinMs - how long the venue may take to answer the socket's close; then the
   *   connection is dropped. Default: the WebSocket library's own 30 s.
   * @returns when closed
   */
  async stop(withinMs?: number): Promise<void> {
    this.stopped = true;
    this.commandOrder.stop();
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.reconciliations.stop();
    this.lookupCatchUp.stop();
    this.placement.stop();
    this.heldActions.stop();
    this.modifiesHeld.stop();
    this.unknownOrders.stop();
    this.fillsWithoutOrder.stop();
    this.lostReplyWaits.cancelAll();
    await this.options.ws.close(withinMs);
    this.subject.complete();
    this.privateStatus.complete();
  }

  /**
   * Sends the command, or holds it until the commands before it on its syms that it must not
   * overtake are answered (see {@link SymCommandOrder}).
   * @param command - an approved intent
   */
  submit(command: ApprovedIntent): void {
    const intent = command.intent;
    if (intent.kind === 'placeOrder' && !this.catchUp.primed) this.placedBeforePrimed.add(intent.ref);
    this.warnOfConcurrentCloses(command);
    this.commandOrder.submit(command, () => this.send(command));
  }

  /** @returns when the venue answered the command, or its lost reply was looked up */
  private send(command: ApprovedIntent): Promise<void> {
    const intent = command.intent;
    switch (intent.kind) {
      case 'placeOrder':
        return this.placement.place(intent);
      case 'modifyOrder':
      case 'cancelOrder':
      case 'cancelOrders':
        return this.sendOrderAction(command, intent);
      default: {
        // Answered once the venue accepted it (before the reads after it), or refused it, or its
        // lost reply was looked up.
        let answered: () => void = () => undefined;
        const answer = new Promise<void>((resolve) => {
          answered = resolve;
        });
        runRestCommand(this.options.rest, command, {
          emit: (event) => this.emit(event),
          now: this.eventNow,
          followUpFailed: (what, error) => this.followUpFailed(command, what, error),
          openAlgoOrders: () => this.localView.state().openAlgoOrders ?? [],
          loanReads: this.loanReadOrder,
          accepted: () => answered(),
          unknownAlgoState: (algoOrder, state) =>
            this.logger.warn(
              {
                ...intentLogFields(intent),
                strategy: command.strategyId,
                clientAlgoOrderId: algoOrder.clientAlgoOrderId,
                algoOrderId: algoOrder.algoOrderId,
                state,
              },
              'algo order read back after a cancel of all in a state Keel does not know: ended CANCELLED in Keel, though the venue may still hold it (check it on the venue)',
            ),
        })
          .catch((error: unknown) => {
            if (isOutcomeUnknown(error)) return this.resolveLostReply(command, error);
            this.rejectCommand(command, error);
            if (error instanceof VenueError && showsNoOpenOrder(error.code)) this.lookUpAlgoTarget(intent);
          })
          .finally(() => {
            this.closesInFlight.answered(command);
            answered();
          });
        return answer;
      }
    }
  }

  /**
   * Sends a modify or cancel, once the venue acknowledged the orders it acts on: one sent while an
   * order's place is unanswered could reach the venue before the order (or, over REST, overtake
   * it) and be refused as unknown, leaving the order working with nobody acting on it. Held until
   * the order's ack, first update or Keel's verdict on it after lookups (see {@link OrderPlacement}),
   * but at most `heldCommandWaitMs`, then sent (see {@link HeldOrderActions}; the venue refuses it if
   * the order ended meanwhile); never sent when the client stops first (refused as not applied,
   * safe to send again). A batch cancel listing orders the venue knows and unacknowledged ones is
   * split: the known ones are cancelled at once (a kill switch's sweep never waits on an order
   * whose ack was lost), the rest once the venue's word on them came. The command still gets one
   * answer: when a part is refused, one refusal is reported once both parts were answered (see
   * {@link splitCancelRefusal}), so the kernel retries or looks up its orders as for any refused
   * cancel. A refusal saying the venue does not know an order it acknowledged (401018) has that
   * order looked up (see {@link LiveExecutionClient.lookUpUnknownTargets}), and a modify of an order
   * under such lookups is held until they end, or a cancel of the order comes (see
   * {@link ModifiesHeldForLookups}; cancels are never held: they add no risk, and if the venue's
   * read side only lagged they are what must reach it).
   */
  private sendOrderAction(command: ApprovedIntent, intent: OrderActionIntent): Promise<void> {
    const targets = intent.kind === 'cancelOrders' ? (intent.targets ?? []) : [intent.target];
    if (intent.kind === 'modifyOrder') {
      const lookup = this.unknownOrders.lookupOf(intent.target);
      if (lookup !== undefined) {
        // Reported answered at once: the venue does not know its order, so no later command on the
        // sym can overtake it there.
        this.modifiesHeld.hold(intent, command.strategyId, lookup, {
          send: () => void this.sendOrderAction(command, intent),
          refuse: (error, keelCode) => this.rejectCommand(command, error, keelCode),
          stillOpen: () =>
            this.localView.state().openOrders.some((order) => order.clientOrderId === intent.target),
          stopped: () => this.stopped,
        });
        return Promise.resolve();
      }
    } else this.modifiesHeld.cancelling(intent);
    const unacked = this.placement.unacknowledged(targets);
    const refuse = (error: unknown, keelCode?: number) => this.rejectCommand(command, error, keelCode);
    if (unacked.length === 0) return this.sendAction(intent, refuse);
    if (intent.kind === 'cancelOrders' && unacked.length < targets.length) {
      const known = targets.filter((target) => !unacked.includes(target));
      this.logger.debug(
        { ref: intent.ref, kind: intent.kind, sent: known, held: unacked },
        'batch cancel split: the orders the venue knows cancelled at once, the rest held until the venue acknowledged them',
      );
      const refusals: PartRefusal[] = [];
      const part = (part: CancelOrdersIntent) => (error: unknown, keelCode?: number) =>
        refusals.push({
          targets: part.targets ?? [],
          error,
          ...(keelCode === undefined ? {} : { keelCode }),
        });
      const sentNow = { ...intent, targets: known };
      const held = { ...intent, targets: unacked };
      return Promise.all([
        this.sendAction(sentNow, part(sentNow)),
        this.heldActions.hold(held, unacked, {
          send: (refused) => this.sendAction(held, refused),
          refuse: part(held),
        }),
      ]).then(() => {
        const refusal = splitCancelRefusal(refusals);
        if (refusal !== undefined) refuse(refusal.error, refusal.keelCode);
      });
    }
    this.logger.debug(
      { ref: intent.ref, kind: intent.kind, targets },
      'command held until the venue acknowledged the orders it acts on',
    );
    return this.heldActions.hold(intent, unacked, {
      send: (refused) => this.sendAction(intent, refused),
      refuse,
    });
  }

  /**
   * @param intent - the modify or cancel (or a part of a split batch cancel)
   * @param refuse - told why the venue refused it (or why it was not sent)
   * @returns when the venue answered it, or it failed (its refusal reported)
   */
  private sendAction(intent: OrderActionIntent, refuse: (error: unknown) => void): Promise<void> {
    return sendOrderAction(intent, {
      ws: this.options.ws,
      rest: this.options.rest,
      refuse: (error) => {
        refuse(error);
        if (error instanceof VenueError && error.code === VENUE_ORDER_NOT_FOUND)
          this.lookUpUnknownTargets(intent);
      },
    });
  }

  /**
   * The venue refused a modify or cancel as "order not found" (401018): an order it acted on that
   * the venue acknowledged and that Keel holds open has an unknown fate (the venue's read side may
   * lag, it may have ended, or the venue lost it), so it is looked up, never assumed open, with the
   * policy of an acknowledged order a reconciliation found unknown (see {@link UnknownOrderLookups}:
   * the venue's answer is emitted; after 3 "not found" over 30 s it is ended CANCELLED with the
   * warning that the venue forgot it). The refusal counts as a "not found"; later ones of the same
   * order never put the verdict off, and the one that comes when it is due ends the order. An order
   * whose place is unanswered is the placement's.
   */
  private lookUpUnknownTargets(intent: OrderActionIntent): void {
    const targets = new Set(intent.kind === 'cancelOrders' ? (intent.targets ?? []) : [intent.target]);
    const unacked = new Set(this.placement.unacknowledged([...targets]));
    for (const order of this.localView.state().openOrders) {
      if (!targets.has(order.clientOrderId) || unacked.has(order.clientOrderId)) continue;
      if (intent.sym !== undefined && order.sym !== intent.sym) continue;
      this.logger.warn(
        {
          ref: intent.ref,
          kind: intent.kind,
          clientOrderId: order.clientOrderId,
          orderId: order.orderId,
          sym: order.sym,
        },
        'the venue does not know an order it acknowledged: looking it up',
      );
      this.unknownOrders.refused({ kind: 'order', order });
    }
  }

  /**
   * The venue refused a cancel or replace of an algo order as not open there (not found, or
   * already final): the venue pushes no algo order updates, so Keel's view of one it holds open is
   * stale (it fired, or was cancelled, unseen) or the venue lost it; it is looked up, never left
   * open for its strategy to act on again and again, with the policy of an algo order a
   * reconciliation found unknown (see {@link UnknownOrderLookups}: the venue's answer is emitted;
   * after 3 "not found" over 30 s it is ended CANCELLED).
   */
  private lookUpAlgoTarget(intent: StrategyIntent['intent']): void {
    if (intent.kind !== 'cancelAlgoOrder' && intent.kind !== 'replaceAlgoOrder') return;
    const algoOrder = (this.localView.state().openAlgoOrders ?? []).find(
      (open) => open.clientAlgoOrderId === intent.target,
    );
    if (algoOrder === undefined) return;
    this.logger.warn(
      {
        ref: intent.ref,
        kind: intent.kind,
        clientAlgoOrderId: intent.target,
        algoOrderId: algoOrder.algoOrderId,
      },
      'the venue holds no such algo order open: looking it up',
    );
    this.unknownOrders.refused({ kind: 'algoOrder', algoOrder });
  }

  /**
   * For a lockstep session's acknowledgement of a market event, which must follow the commands
   * the event made (see {@link SymCommandOrder}), the modifies and cancels held until their
   * orders' acks among them. Read again once it settles: the session tells the venue again that
   * it holds commands while some still are, so the venue runs what a released command (or the
   * ones still held) waits for.
   * @returns settles once one held command is sent or reported never sent (none held any more
   *   included); undefined when none is held
   */
  commandsHeld(): Promise<void> | undefined {
    const behind = this.commandOrder.released();
    const held = this.heldActions.pending();
    if (held.length === 0) return behind;
    return Promise.race(behind === undefined ? held : [behind, ...held]);
  }

  /** A held command was never sent (the client stopped): a REJECTED order for a place, else a refusal. */
  private notSent(command: StrategyIntent, reason: string): void {
    this.closesInFlight.answered(command);
    if (command.intent.kind === 'placeOrder')
      this.emitOrder(orderFromIntent(command.intent, '', 'REJECTED', this.eventNow(), reason));
    else this.rejectCommand(command, new Error(reason), COMMAND_NOT_APPLIED);
  }

  /**
   * A close of a sym another strategy's unanswered close reaches: the venue's close order names
   * neither (the request carries no reference); it is held until the other is answered (see
   * {@link SymCommandOrder}), and the kernel gives the order to the first-sent close on the paper
   * venue, to neither on a live one; said at warn.
   */
  private warnOfConcurrentCloses(command: StrategyIntent): void {
    for (const { sym, others } of this.closesInFlight.sending(command)) {
      this.logger.warn(
        { sym, strategyId: command.strategyId, others, ref: command.intent.ref },
        `${command.strategyId} closes ${sym} while ${others.join(', ')} is closing it too: on a live venue the close order cannot be told whose, so no strategy is told of it (the paper venue makes close orders in the order sent: the first close gets it)`,
      );
    }
  }

  /**
   * Looks an order up by its clientOrderId, by its orderId when it has none (`order-lookup.ts`).
   * An answer ahead of what the client's events told (final while held open, or executed
   * further: a push was lost) runs a reconciliation, which reports the fills missed and the
   * order's state (see {@link LookupCatchUp}).
   * @param sym - the order's sym
   * @param clientOrderId - the reference the order was sent with; '' for none
   * @param orderId - the venue's id, when known
   * @returns the venue's order, or undefined when the venue answers 401018 (order not found)
   * @throws LastingLookupFailure when asking again will not help (logged at error); the REST
   *   client's error for a failure that may pass
   */
  async lookupOrder(sym: string, clientOrderId: string, orderId?: string): Promise<Order | undefined> {
    const found = await this.lookUpOnly(sym, clientOrderId, orderId);
    if (!this.stopped) this.lookupCatchUp.answered(found);
    return found;
  }

  /** {@link lookupOrder} without catching up: for the lookups whose answers are reported as they are. */
  private lookUpOnly(sym: string, clientOrderId: string, orderId?: string): Promise<Order | undefined> {
    return lookUpOrder(this.options.rest, { sym, clientOrderId, orderId }, this.logger);
  }

  /**
   * Looks an algo order up by its clientAlgoOrderId, by its algoOrderId when it has none
   * (`algo-order-lookup.ts`).
   * @param algoOrder - the algo order as Keel holds it
   * @returns the venue's algo order, or undefined when the venue answers 401018 (not found)
   * @throws LastingLookupFailure when asking again will not help (logged at error); the REST
   *   client's error for a failure that may pass
   */
  private lookupAlgoOrder(algoOrder: AlgoOrder): Promise<AlgoOrder | undefined> {
    return lookUpAlgoOrder(this.options.rest, algoOrder, this.logger);
  }

  /** @returns open orders, open algo orders, non-zero positions, assets, the account and outstanding loans */
  snapshot(): Promise<VenueSnapshot> {
    return venueSnapshot(
      this.options.rest,
      this.eventNow,
      (error) =>
        this.logger.warn(
          { err: error },
          'could not read the margin loans for reconciliation: the loans known before are kept',
        ),
      () => this.warnUnknownBalances(),
    );
  }

  /**
   * The venue's account reply listed no assets: logged at warn and kept for the result, once per
   * client (every reconciliation would say it again).
   */
  private warnUnknownBalances(): void {
    if (this.warningsOf('unknownBalances').length > 0) return;
    const warning =
      "The venue's account reply lists no assets (balances): Keel knows a coin's balance only once the venue pushes it on the Assets channel, which it does when the balance changes; until then ctx.asset(coin) is undefined and ctx.balance(coin) reads 0.";
    this.logger.warn(warning);
    this.warnings.push({ kind: 'unknownBalances', text: warning });
  }

  /**
   * Reads the venue's loans now and reports them as `loan` events, each loan Keel holds that the
   * venue no longer lists as paid off (see {@link VenueLoanReads}): for a session's end, so what
   * it says is owed is what the venue holds.
   * @returns true when read; false when the read failed (logged; Keel's loans are kept)
   */
  readLoans(): Promise<boolean> {
    return this.loanReads.request();
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
    const now = this.eventNow();
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

  /**
   * Passes on an event the client made itself (an ack, a lookup's answer, a correction, a
   * refusal, a read), marked `stampedByKeel`: its time is the session's clock, not the venue's
   * stamp, which the kernel's bars tell apart (see `KernelOptions.keelStampsOnVenueClock`).
   */
  private emit(event: UserEvent, origin: 'venue' | 'correction' = 'venue'): void {
    this.passOn(event.stampedByKeel === true ? event : { ...event, stampedByKeel: true }, origin);
  }

  /**
   * Keeps the local view reconciliation compares with the venue's, then passes the event on; an
   * execution already reported (a duplicate push, or a push of a fill reconciliation caught up on)
   * is dropped, and so is a position report older than one of its leg passed on. An update from
   * the venue is noted as newer than a snapshot being taken; a reconciliation's correction is as
   * old as its snapshot. An order naming an open algo order ends that algo order first, and an
   * algo order reported open after an order naming it is ended right after (see
   * {@link FiredAlgoOrders}).
   */
  private passOn(event: UserEvent, origin: 'venue' | 'correction' = 'venue'): void {
    this.ownPortfolio.observe(event);
    if (event.kind === 'liquidationPosition' && !this.ownPortfolio.owns(event.record)) {
      const { liquidationEventId, portfolioId, orderId } = event.record;
      this.logger.debug(
        { liquidationEventId, portfolioId, orderId },
        'liquidation order of another portfolio under the account skipped',
      );
      return;
    }
    if (event.kind === 'execution' && this.localView.hasExecution(event.execution.transactionId)) {
      this.logger.debug({ transactionId: event.execution.transactionId }, 'execution already reported');
      return;
    }
    if (event.kind === 'position' && !this.positionReports.admit(event.position)) {
      const { sym, positionSide, updateAt } = event.position;
      this.logger.debug({ sym, positionSide, updateAt }, 'position report older than one passed on');
      return;
    }
    this.unknownOrders.settle(event);
    if (event.kind === 'order') {
      const ended = this.firedAlgos.endedBy(event.order);
      if (ended !== undefined) this.passOn(algoOrderAsOf(event, ended), origin);
      this.placement.settle(event.order.clientOrderId);
    }
    this.firedAlgos.observe(event);
    this.fillsWithoutOrder.observe(event);
    if (origin === 'venue') this.localView.observe(event);
    else this.localView.observeCorrection(event);
    this.subject.next(event);
    const firedBefore = event.kind === 'algoOrder' ? this.firedAlgos.firedBefore(event.algoOrder) : undefined;
    if (firedBefore !== undefined) this.passOn(algoOrderAsOf(event, firedBefore), origin);
    // The liquidation may have repaid loans: the venue pushes no loan updates.
    if (event.kind === 'liquidationEvent' && origin === 'venue') void this.loanReads.request();
  }

  /**
   * A pushed update of this order was in a state Keel does not know (dropped, counted malformed):
   * it is looked up at once and the answer read as reconciliation reads it (open while the venue
   * lists it, else ended; `order-lookup.ts`), rather than left as Keel last knew it until the next
   * reconnect. When the lookup fails or finds nothing, a reconciliation (retried until it
   * succeeds) gives the order its outcome the same way.
   */
  private lookUpUnknownState(order: NamedOrder): void {
    this.lookupOrder(order.sym, order.clientOrderId, order.orderId)
      .then((found) => {
        if (found === undefined) throw new Error('the venue does not know it (401018)');
        this.emitOrder(found);
      })
      .catch((error: unknown) => {
        this.logger.warn(
          { ...order, err: String(error) },
          'could not look up an order pushed in a state Keel does not know: reconciling',
        );
        this.reconciliations.request().catch(() => undefined);
      });
  }

  /** The venue did not know orders it had acknowledged: logged at error and kept for {@link forgottenOrderWarnings}. */
  private warnForgotten(warning: string): void {
    this.logger.error(warning);
    this.warnings.push({ kind: 'forgotten', text: warning });
  }

  /** Order states went out without their fills: logged at warn and kept for {@link unfetchedFillWarnings}. */
  private warnUnfetchedFills(warning: string): void {
    this.logger.warn(warning);
    this.warnings.push({ kind: 'unfetchedFills', text: warning });
  }

  /** Execution rows were left out of a catch-up: logged at warn and kept for {@link leftOutExecutionWarnings}. */
  private warnLeftOutExecutions(warning: string): void {
    this.logger.warn(warning);
    this.warnings.push({ kind: 'leftOutExecutions', text: warning });
  }

  /** A fill came without its order's update and its order could not be found: logged at warn and kept for the result. */
  private warnUnownedFill(warning: string): void {
    this.logger.warn(warning);
    this.warnings.push({ kind: 'unownedFills', text: warning });
  }

  private warningsOf(kind: ReconciliationWarningKind): string[] {
    return this.warnings.flatMap((warning) => (warning.kind === kind ? [warning.text] : []));
  }

  /**
   * A reconciliation brought Keel's view back to the venue's: said once, at info, with what it
   * corrected (see {@link reconciliationReport}), and whether trading resumes or stays stopped
   * (see `LiveExecutionOptions.tradingStopped`).
   */
  private reconciled(corrections: readonly UserEvent[], before: LocalTradingState): void {
    if (!this.options.ws.isLoggedIn) return;
    const wasDown = this.privateStatus.current !== 'reconciled';
    this.privateStatus.set('reconciled');
    if (!wasDown) return;
    const stopped = this.options.tradingStopped?.();
    this.logger.info(
      reconciliationReport(corrections, before, this.unknownOrders.lookingUp()),
      stopped === undefined
        ? 'reconciliation finished: trading resumes'
        : `reconciliation finished; trading stays ${stopped}`,
    );
  }

  /**
   * A reconciliation after a login failed or stayed incomplete: the private stream, still `up`,
   * is reported again with why (so the kernel's denials of new orders name it), and logged at warn
   * when the reason changed.
   */
  private stillStale(reason: string): void {
    if (this.privateStatus.current !== 'up' || this.privateStatus.reason === reason) return;
    this.logger.warn(
      { reason },
      'private stream not reconciled: new orders and modifies are denied until a reconciliation succeeds (cancels and closes still go out)',
    );
    this.privateStatus.set('up', reason);
  }

  private emitOrder(order: Order): void {
    const now = this.eventNow();
    this.emit({ kind: 'order', ts: now, recvTs: now, order });
  }

  /** A REST command's reply was lost: the venue may have run it, so it is looked up, never re-sent. */
  private resolveLostReply(command: StrategyIntent, failure: unknown): Promise<void> {
    return resolveLostReply(command, failure, {
      rest: this.options.rest,
      now: this.eventNow,
      openAlgoOrders: () => this.localView.state().openAlgoOrders ?? [],
      loanReads: this.loanReadOrder,
      policy: { ...DEFAULT_LOST_REPLY_LOOKUPS, ...this.options.lostReplyLookups },
      wait: (ms) => this.lostReplyWaits.wait(ms).done,
      emit: (event) => this.emit(event),
      refuse: (rejected, message, code) => this.rejectCommand(rejected, new Error(message), code),
      logger: this.logger,
    });
  }

  /**
   * The venue accepted a loan or position-mode command but the read after it failed: the command
   * stands, and a reconciliation (retried until it succeeds) brings back the account's position
   * mode and the assets' loan balances; loan records come with the next loan command's read.
   */
  private followUpFailed(command: StrategyIntent, what: string, error: unknown): void {
    this.logger.warn(
      { ref: command.intent.ref, kind: command.intent.kind, err: String(error) },
      `the venue accepted the command, but reading the ${what} after it failed: reconciling`,
    );
    this.reconciliations.request().catch(() => undefined);
  }

  private rejectCommand(command: StrategyIntent, error: unknown, keelCode?: number): void {
    const rejection = commandRejection(command, error, this.eventNow(), keelCode);
    const { intentKind: kind, code, message } = rejection;
    this.logger[refusalLogLevel(kind, code)](
      { ...intentLogFields(command.intent), strategy: command.strategyId, code, message },
      refusalLogMessage(code),
    );
    this.emit(rejection);
  }
}

/** An update of an algo order an event told of, at that event's time and stamped as it was. */
function algoOrderAsOf(event: UserEvent, algoOrder: AlgoOrder): AlgoOrderUpdateEvent {
  const update: AlgoOrderUpdateEvent = { kind: 'algoOrder', ts: event.ts, recvTs: event.recvTs, algoOrder };
  return event.stampedByKeel === true ? { ...update, stampedByKeel: true } : update;
}
