import type {
  AlgoOrder,
  AlgoOrderUpdateEvent,
  CommandRejectedEvent,
  Execution,
  ExecutionEvent,
  Order,
  OrderUpdateEvent,
  Position,
  UserEvent,
} from '../model/index.ts';
import {
  COMMAND_NOT_APPLIED,
  COMMAND_OUTCOME_UNKNOWN,
  refusesAFinalOrder,
  showsNoOpenOrder,
} from '../model/index.ts';
import {
  AWAITING_ALGO_CHILD_MS,
  AWAITING_ALGO_CHILDREN_KEPT,
  type AwaitingAlgoChild,
} from './algo-children-awaiting.ts';
import { type AlgoChildGivenUp, algoChildGivenUp, type GivenUpCause } from './algo-children-given-up.ts';
import type { EquityObservations } from './equity-observations.ts';
import { type FillGivenUp, fillGivenUp } from './fill-given-up.ts';
import { orderLegOf } from './fill-leg.ts';
import { FILL_AWAITING_ORDER_MS, FillsAwaitingOrder } from './fills-awaiting-order.ts';
import { foldUserEvent } from './fold-user-event.ts';
import type { InFlightAlgoOrders } from './in-flight-algo-orders.ts';
import type { InFlightCloses } from './in-flight-closes.ts';
import type { InFlightRequests } from './in-flight-requests.ts';
import type { KernelState } from './kernel-state.ts';
import { orderKey } from './order-keys.ts';
import { closeCommandNaming, inheritedOrderOwner } from './order-lineage.ts';
import type { OrderRegistry } from './order-registry.ts';
import { generatedRefOwner } from './ref-adoption.ts';
import type { IntentDenied } from './strategy-events.ts';
import type { StrategyRunner } from './strategy-runner.ts';

/** What a fill's own delivery takes with it of the fills that came early: none (one shared list). */
const NO_EARLY_FILLS: readonly ExecutionEvent[] = [];

/** What {@link UserDataRouting} tells the kernel besides delivering events. */
export interface UserDataRoutingHooks {
  /** Told of every refusal once its sender was told (a sweep's cancel is retried). */
  readonly refusedCommand?: (event: CommandRejectedEvent) => void;
  /** Told of every order given up waiting for the algo order it names (logged and counted by a session). */
  readonly algoChildGivenUp?: (report: AlgoChildGivenUp) => void;
  /** Told of every fill given up waiting for its order's first update (logged and counted by a session). */
  readonly fillGivenUp?: (report: FillGivenUp) => void;
  /**
   * Told of every User Data event before it is folded, even one the fold will find stale (a
   * lookup's answer that an order is as Keel held it), so a sweep learns the venue's word.
   */
  readonly venueSaid?: (event: UserEvent) => void;
  /** Asks to be woken ({@link UserDataRouting.wake}) at `at`, the run's time, epoch ms. */
  readonly wakeAt?: (at: number) => void;
  /**
   * Told of every order update and algo order report that changed the state, once folded and
   * before any strategy hears of it, so a kill switch's sweep cancels an order that becomes known
   * after it (a take-profit the venue attached when an entry filled).
   */
  readonly orderFolded?: (event: OrderUpdateEvent | AlgoOrderUpdateEvent) => void;
  /**
   * Told of every position update that changed the state, once folded and before any strategy
   * hears of it, so a kill switch's REDUCING sweep cancels the orders that no longer reduce it.
   */
  readonly positionFolded?: (position: Position) => void;
}

/**
 * How User Data reaches the kernel state and the strategies: folded first (a stale or duplicate
 * update stops there), then delivered to the strategy that owns the order (an order that waits for
 * the algo order it names, and its fills, once that algo order's report hands it an owner; a fill
 * that came before its order's first update, once that update names the owner), to every strategy for
 * positions, to the kill switch when money changed hands, and as a denial for a command the
 * venue refused. A refused modify or cancel puts its orders back to the venue's last word; when
 * its outcome is unknown ({@link COMMAND_OUTCOME_UNKNOWN}, -1: no answer came), its orders are also
 * looked up, since it may have happened; and so are they when the venue says an order is already
 * final ({@link refusesAFinalOrder}: 401058 or 401117; Keel missed a fill or cancel, and a strategy
 * left with the order OPEN would repeat the command). The strategy's denial carries the code as its check
 * (`venue.-1`, `venue.-2` for {@link COMMAND_NOT_APPLIED}, `venue.<venue code>`).
 */
export class UserDataRouting {
  private readonly byId: ReadonlyMap<string, StrategyRunner>;
  private readonly strategyIds: ReadonlySet<string>;
  /** Updates and fills of orders waiting for the algo order they name, oldest first. */
  private held: (OrderUpdateEvent | ExecutionEvent)[] = [];
  /** Fills owned by no strategy that arrived before their order's first update. */
  private readonly fillsAwaiting = new FillsAwaitingOrder();
  /**
   * When the wake-up to give up orders waiting for their algo order, and fills waiting for their
   * order, is due; undefined when none is asked for.
   */
  private giveUpAt: number | undefined;

  /**
   * @param state - the kernel state User Data is folded into
   * @param runners - every strategy of the kernel
   * @param equity - shows equity to the gate's kill switch after fills and account updates
   * @param deny - delivers a denial to its strategy
   * @param record - reports a denial for the run's outputs without delivering it (a refusal after stop)
   * @param requests - Keel's book of modify and cancel requests in flight
   * @param algosInFlight - the algo orders sent and not answered yet; the venue's first word on one ends that
   * @param closes - the position closes in flight; an order one made is its sender's
   * @param lookUp - asks the venue for orders whose request had no answer; what it says comes
   *   back as order updates
   * @param hooks - told of refusals and of orders given up, and how to be woken to give them up
   */
  constructor(
    private readonly state: KernelState,
    private readonly runners: readonly StrategyRunner[],
    private readonly equity: EquityObservations,
    private readonly deny: (runner: StrategyRunner, denial: IntentDenied) => void,
    private readonly record: (denial: IntentDenied) => void,
    private readonly requests: InFlightRequests,
    private readonly algosInFlight: InFlightAlgoOrders,
    private readonly closes: InFlightCloses,
    private readonly lookUp: (orders: readonly Order[]) => void,
    private readonly hooks: UserDataRoutingHooks = {},
  ) {
    this.byId = new Map(runners.map((runner) => [runner.id, runner]));
    this.strategyIds = new Set(this.byId.keys());
  }

  /**
   * Folds one User Data event into the state and delivers it.
   * @param event - the event
   */
  route(userEvent: UserEvent): void {
    if (this.state.orders.awaitingAlgoSince() !== undefined) this.giveUpAwaiting();
    this.expireFills();
    this.hooks.venueSaid?.(userEvent);
    const repeat = userEvent.kind === 'algoOrder' && this.state.orders.repeatsAlgo(userEvent.algoOrder);
    const event = this.foldCloseStamped(userEvent);
    this.wakeToGiveUp();
    if (event === undefined) return;
    if (event.kind === 'order' || event.kind === 'algoOrder') this.hooks.orderFolded?.(event);
    switch (event.kind) {
      case 'order':
      case 'execution':
        this.deliverOrHold(event);
        return;
      case 'algoOrder':
        if (!repeat) this.ownerOf(event.algoOrder.clientAlgoOrderId)?.deliverAlgoOrder(event.algoOrder);
        this.deliverHeld();
        return;
      case 'position':
        this.hooks.positionFolded?.(event.position);
        for (const runner of this.runners) runner.deliverPosition(event.position);
        return;
      case 'commandRejected':
        this.refused(event);
        return;
      default:
        return;
    }
  }

  /**
   * Folds one User Data event into the state without delivering it: what the venue holds before
   * the strategies start, which they read through their context in `onStart`.
   * @param event - the event
   * @returns false when the event changed nothing (stale, duplicate, a fill already booked)
   */
  fold(event: UserEvent): boolean {
    return this.foldCloseStamped(event) !== undefined;
  }

  /**
   * Folds one User Data event, an update or a fill of a close order stamped with its close's
   * reference first ({@link withCloseRef}).
   * @returns the event as folded, or undefined when it changed nothing
   */
  private foldCloseStamped(userEvent: UserEvent): UserEvent | undefined {
    this.noteAlgoAnswer(userEvent);
    this.noteClose(userEvent);
    const event = this.withKeelFields(userEvent);
    const folded = foldUserEvent(this.state, event);
    this.givePushedOutUp();
    if (!folded) return undefined;
    if (event.kind === 'order') this.requests.venueUpdated(event.order);
    if (event.kind === 'execution' && !this.closes.idle) this.noteKnownFill(event.execution);
    // Money changed hands: the kill switch sees equity now rather than at the next intent.
    if (event.kind === 'execution' || event.kind === 'account') this.equity.moneyMoved();
    return event;
  }

  /**
   * An event with the fields Keel sets. An update or a fill of an order a strategy's position close
   * made, with the close's reference as `closeRef`: a venue names a close's order as it likes (the
   * request carries no reference), so the strategy (`onOrder`, `onFill`, `ctx.openOrders()`) tells
   * its close's order and fills by it in every mode. An update of an order an algo order placed when
   * it fired, with that algo order's reference as `algoRef` (the venue names it by its
   * `algoOrderId` only). An algo order's report, which the fold takes, with Keel's requests in
   * flight on it (`pending`) and, when CANCELLED, why ({@link AlgoOrderRequests.reported}). Any
   * other event as it came.
   */
  private withKeelFields(event: UserEvent): UserEvent {
    if (event.kind === 'order') {
      const closeRef = this.state.orders.closeRefOf(orderKey(event.order));
      const order = closeRef === undefined ? event.order : { ...event.order, closeRef };
      const stamped = this.withAlgoRef(order);
      return stamped === event.order ? event : { ...event, order: stamped };
    }
    if (event.kind === 'execution') {
      const closeRef = this.state.orders.closeRefOf(this.keyOf(event));
      return closeRef === undefined ? event : { ...event, execution: { ...event.execution, closeRef } };
    }
    if (event.kind === 'algoOrder') {
      const algoOrder = this.withAlgoMarks(event.algoOrder);
      return algoOrder === event.algoOrder ? event : { ...event, algoOrder };
    }
    return event;
  }

  /** The order with the reference of the algo order that placed it (`algoRef`), when Keel knows it. */
  private withAlgoRef(order: Order): Order {
    if (order.algoOrderId === undefined || order.algoOrderId === '' || order.algoRef !== undefined)
      return order;
    const algoRef = this.state.orders.algoById(order.algoOrderId)?.clientAlgoOrderId;
    return algoRef === undefined || algoRef === '' ? order : { ...order, algoRef };
  }

  /**
   * An algo order's report that the fold takes, and that does not repeat the last one, answers
   * Keel's requests on it: it comes with those
   * still in flight (`pending`) and, when CANCELLED, with why (`cancelReason`): the other leg of its
   * take-profit / stop-loss pair fired, else a cancel or a position close Keel sent.
   */
  private withAlgoMarks(algo: AlgoOrder): AlgoOrder {
    const { orders, algoRequests } = this.state;
    if (!orders.takesAlgo(algo)) return algo;
    // A repeated report answers nothing: the request it would take for answered is still in flight.
    const requested = orders.repeatsAlgo(algo) ? undefined : algoRequests.reported(algo);
    const cancelReason =
      algo.state === 'CANCELLED' && orders.siblingTriggered(algo) ? 'siblingTriggered' : requested;
    const pending = algoRequests.pendingOf(algo.clientAlgoOrderId);
    if (cancelReason === undefined && pending === undefined) return algo;
    return {
      ...algo,
      ...(pending === undefined ? {} : { pending }),
      ...(cancelReason === undefined ? {} : { cancelReason }),
    };
  }

  /**
   * Folds one User Data event that arrived after the kernel stopped: the state learns what the
   * venue settled, and a refused modify or cancel puts its orders back to the venue's last word.
   * A refused command (an `onStop` close the venue would not run) is reported as its sender's
   * denial for the run's outputs, as one during the run is, but no strategy is told and nothing
   * is looked up.
   * @param event - the event
   */
  settle(event: UserEvent): void {
    if (!this.fold(event) || event.kind !== 'commandRejected') return;
    const request = this.requests.refused(event.ref);
    const ownerId = request?.owner ?? this.state.orders.ownerOf(event.ref);
    const runner = ownerId === undefined ? undefined : this.byId.get(ownerId);
    if (runner === undefined) return;
    this.record({
      ...this.refusal(runner, event, false),
      reason: `${refusalReason(event, false)}; it came after the stop, so the strategy was not told`,
    });
  }

  /** Tells the sender, undoes Keel's PENDING_* marks, and looks up what may have happened anyway. */
  private refused(event: CommandRejectedEvent): void {
    const request = this.requests.refused(event.ref);
    const ownerId = request?.owner ?? this.state.orders.ownerOf(event.ref);
    const runner = ownerId === undefined ? undefined : this.byId.get(ownerId);
    const lookUp =
      request !== undefined &&
      (event.code === COMMAND_OUTCOME_UNKNOWN || refusesAFinalOrder(event.code)) &&
      request.targets.length > 0;
    if (lookUp) this.lookUp(request.targets);
    if (runner !== undefined) this.denyRefused(runner, event, lookUp);
    this.hooks.refusedCommand?.(event);
  }

  private denyRefused(runner: StrategyRunner, event: CommandRejectedEvent, lookUp: boolean): void {
    this.deny(runner, this.refusal(runner, event, lookUp));
  }

  private refusal(runner: StrategyRunner, event: CommandRejectedEvent, lookUp: boolean): IntentDenied {
    const sym = this.state.commandSyms.symOf(event.ref);
    return {
      kind: 'denied',
      strategyId: runner.id,
      ref: event.ref,
      intentKind: event.intentKind,
      ...(sym === undefined ? {} : { sym }),
      source: 'venue',
      check: `venue.${event.code}`,
      reason: refusalReason(event, lookUp),
      ts: this.state.now(),
    };
  }

  /**
   * The venue's first word on an algo order (an update, even one the fold finds stale) or its
   * refusal ends its flight (an update also answers the replaces sent on it, a refusal of one that one); an answer that never came does not, since the algo order may exist
   * (see {@link InFlightAlgoOrders.outcomeUnknown}), until the venue refuses a cancel of it as
   * not found or already final.
   */
  private noteAlgoAnswer(event: UserEvent): void {
    if (event.kind === 'commandRejected') this.unmarkRefused(event.ref);
    if (event.kind === 'algoOrder') this.algosInFlight.answered(event.algoOrder.clientAlgoOrderId);
    else if (event.kind === 'commandRejected' && event.intentKind === 'placeAlgoOrder') {
      if (event.code === COMMAND_OUTCOME_UNKNOWN) this.algosInFlight.outcomeUnknown(event.ref);
      else this.algosInFlight.answered(event.ref);
    } else if (event.kind === 'commandRejected' && event.intentKind === 'cancelAlgoOrder') {
      this.algosInFlight.cancelRefused(event.ref, showsNoOpenOrder(event.code));
    } else if (event.kind === 'commandRejected' && event.intentKind === 'replaceAlgoOrder') {
      this.algosInFlight.replaceRefused(event.ref, event.code === COMMAND_OUTCOME_UNKNOWN);
    }
  }

  /** A refused request no longer marks the algo orders it reached `pending`. */
  private unmarkRefused(ref: string): void {
    const { orders, algoRequests } = this.state;
    for (const algoRef of algoRequests.refused(ref))
      orders.markAlgo(algoRef, algoRequests.pendingOf(algoRef));
  }

  /**
   * The venue's orders and positions were read again and folded (the private stream is
   * `reconciled`): an algo order whose outcome was unknown and that the venue did not list is not
   * on the venue.
   */
  reconciled(): void {
    this.algosInFlight.reconciled();
  }

  /**
   * A position close's refusal ends its flight (an unknown outcome does not: it may have closed),
   * and so does a report of its leg where the close may have taken it (after an unknown outcome,
   * at any size; a fill of a known order moves the size the close will find, see
   * {@link noteKnownFill}); an order it made is recorded as its sender's with its close's reference
   * before the order is folded (see {@link InFlightCloses}): the venue names it as it likes, so it
   * inherits no owner otherwise. An order two strategies' closes may have made is the first-sent
   * close's where the venue makes close orders in send order, else left to neither, and kept for
   * the run's warnings, as is one that comes after a report ended its close. An order the venue
   * makes during a liquidation is the liquidation's, no close's.
   */
  private noteClose(event: UserEvent): void {
    if (event.kind === 'liquidationEvent') this.closes.liquidationNode(event.record.nodeType);
    if (this.closes.quiet) return;
    switch (event.kind) {
      case 'commandRejected':
        if (!isClose(event)) return;
        if (event.code === COMMAND_OUTCOME_UNKNOWN) this.closes.outcomeUnknown(event.ref);
        else this.closes.refused(event.ref);
        return;
      case 'position':
        this.closes.positionReported(event.position);
        return;
      case 'order':
        this.closeOrder(event.order);
        return;
      default:
        return;
    }
  }

  /**
   * A fill booked once, of an order the kernel knew (its update, or Keel's placeholder for it,
   * came first): the closes in flight on its leg will find the leg moved by it. A fill of an order
   * not seen yet may be a close's own, and is not counted.
   */
  private noteKnownFill(execution: Execution): void {
    const leg = orderLegOf(this.state.orders, execution);
    if (leg === undefined) return;
    const positionSide = execution.positionSide === 'NONE' ? leg : execution.positionSide;
    const qty = execution.side === 'BUY' ? execution.quantity : execution.quantity.neg();
    this.closes.filled(execution.sym, positionSide, qty);
  }

  private closeOrder(order: Order): void {
    const orders = this.state.orders;
    const key = orderKey(order);
    const closeRef = closeCommandNaming(key, orders);
    if (closeRef !== undefined) {
      this.closes.seen(closeRef, order);
      orders.noteCloseOrder(key, closeRef);
      return;
    }
    if (orders.recordedOwner(key) !== undefined || inheritedOrderOwner(order, orders) !== undefined) return;
    // An earlier run's order, which the fold hands back to its strategy.
    if (generatedRefOwner(order.clientOrderId, this.strategyIds) !== undefined) return;
    const claim = this.closes.claim(order, !orders.byId.has(order.orderId));
    if (claim?.kind !== 'owner') return;
    orders.own(key, claim.owner);
    orders.noteCloseOrder(key, claim.ref);
  }

  /**
   * Delivers an order update or a fill to the strategy owning its order; one of an order that waits
   * for the algo order it names ({@link OrderRegistry.awaitsAlgo}) is held until that algo order's
   * report hands it an owner (the last {@link AWAITING_ALGO_CHILDREN_KEPT} held, each at most
   * {@link AWAITING_ALGO_CHILD_MS}). A fill owned by no strategy whose order the kernel has not
   * seen yet waits for that order's first update
   * ({@link FillsAwaitingOrder}), then goes, before the update as it came, where the update goes:
   * to its owner, into the wait for its algo order, or nowhere when the order is nobody's.
   */
  private deliverOrHold(event: OrderUpdateEvent | ExecutionEvent): void {
    const key = this.keyOf(event);
    const runner = this.ownerOf(key);
    const early = event.kind === 'order' ? this.fillsAwaiting.take(event.order.orderId) : NO_EARLY_FILLS;
    if (runner !== undefined) {
      for (const fill of early) deliver(runner, fill);
      deliver(runner, event);
    } else if (this.state.orders.awaitsAlgo(key)) {
      for (const fill of early) this.hold(fill);
      this.hold(event);
    } else if (event.kind === 'execution' && this.orderUnseen(event.execution.orderId, key)) {
      const now = this.state.now();
      const pushedOut = this.fillsAwaiting.hold(event, now);
      if (pushedOut !== undefined) this.hooks.fillGivenUp?.(fillGivenUp(pushedOut, now, 'capacity'));
      this.wakeToGiveUp();
    }
  }

  /**
   * The wake-up asked for ({@link UserDataRoutingHooks.wakeAt}) is due: the orders that waited
   * too long for their algo order, and the fills that waited too long for their order, are given
   * up, and the next wake-up asked for.
   */
  wake(): void {
    if (this.giveUpAt === undefined || this.state.now() < this.giveUpAt) return;
    this.giveUpAt = undefined;
    this.giveUpAwaiting();
    this.expireFills();
    this.wakeToGiveUp();
  }

  /**
   * Asks to be woken when the order waiting longest for its algo order, or the fill waiting
   * longest for its order, has waited too long.
   */
  private wakeToGiveUp(): void {
    if (this.giveUpAt !== undefined || this.hooks.wakeAt === undefined) return;
    const algoSince = this.state.orders.awaitingAlgoSince();
    const fillSince = this.fillsAwaiting.oldestHeldAt();
    const due = Math.min(
      algoSince === undefined ? Number.POSITIVE_INFINITY : algoSince + AWAITING_ALGO_CHILD_MS + 1,
      fillSince === undefined ? Number.POSITIVE_INFINITY : fillSince + FILL_AWAITING_ORDER_MS + 1,
    );
    if (due === Number.POSITIVE_INFINITY) return;
    this.giveUpAt = due;
    this.hooks.wakeAt(due);
  }

  /**
   * Gives up the fills that waited longer than {@link FILL_AWAITING_ORDER_MS} for their order's
   * first update: they reach no strategy, and each is reported.
   */
  private expireFills(): void {
    const now = this.state.now();
    for (const held of this.fillsAwaiting.expire(now))
      this.hooks.fillGivenUp?.(fillGivenUp(held, now, 'timeout'));
  }

  /**
   * Gives up the orders that waited longer than {@link AWAITING_ALGO_CHILD_MS} for the algo
   * order they name: their held updates and fills reach no strategy (as the session's journal,
   * which holds them as long, records them with none), and each is reported.
   */
  private giveUpAwaiting(): void {
    const now = this.state.now();
    this.giveUp(this.state.orders.giveUpAwaitingAlgo(now), now, 'timeout');
  }

  /**
   * Gives up the orders newer ones pushed out of the wait for their algo order (see
   * {@link AWAITING_ALGO_CHILDREN_KEPT}), as {@link giveUpAwaiting} does those that waited too long.
   */
  private givePushedOutUp(): void {
    const pushedOut = this.state.orders.takeAwaitingAlgoPushedOut();
    if (pushedOut.length > 0) this.giveUp(pushedOut, this.state.now(), 'capacity');
  }

  /** Drops the held updates and fills of orders given up, and reports each order. */
  private giveUp(givenUp: readonly AwaitingAlgoChild[], now: number, cause: GivenUpCause): void {
    if (givenUp.length === 0) return;
    const dropped = new Map(givenUp.map((child) => [child.key, 0]));
    this.held = this.held.filter((event) => {
      const key = this.keyOf(event);
      const count = dropped.get(key);
      if (count === undefined) return true;
      dropped.set(key, count + 1);
      return false;
    });
    const report = this.hooks.algoChildGivenUp;
    if (report === undefined) return;
    for (const child of givenUp)
      report(
        algoChildGivenUp(
          child,
          this.state.orders.byRef.get(child.key),
          dropped.get(child.key) ?? 0,
          now,
          cause,
        ),
      );
  }

  /**
   * Holds an update or fill of an order waiting for its algo order. Past
   * {@link AWAITING_ALGO_CHILDREN_KEPT} held, the order of the oldest is given up (`backlog`),
   * with all that was held for it: dropping the one event alone would hand its strategy the order
   * later without it (a fill missed), and said nothing.
   */
  private hold(event: OrderUpdateEvent | ExecutionEvent): void {
    this.held.push(event);
    if (this.held.length <= AWAITING_ALGO_CHILDREN_KEPT) return;
    const oldest = this.held[0] as OrderUpdateEvent | ExecutionEvent;
    const child = this.state.orders.giveUpAwaitingAlgoOrder(this.keyOf(oldest));
    // An event of an order that waits no more is one deliverHeld would drop: nothing is given up.
    if (child === undefined) this.held.shift();
    else this.giveUp([child], this.state.now(), 'backlog');
  }

  /** Whether the kernel has no update of the order a fill names, by its orderId or its key. */
  private orderUnseen(orderId: string, key: string): boolean {
    const { orders } = this.state;
    return !orders.byId.has(orderId) && !orders.byRef.has(key);
  }

  /**
   * An algo order was reported: the held updates and fills of the orders it handed its owner to
   * reach that strategy, in the order they arrived; those of orders it left ownerless are dropped.
   */
  private deliverHeld(): void {
    if (this.held.length === 0) return;
    const waiting: (OrderUpdateEvent | ExecutionEvent)[] = [];
    for (const event of this.held) {
      const key = this.keyOf(event);
      const runner = this.ownerOf(key);
      if (runner !== undefined) deliver(runner, event.kind === 'order' ? this.withAlgoRefOn(event) : event);
      else if (this.state.orders.awaitsAlgo(key)) waiting.push(event);
    }
    this.held = waiting;
  }

  /** A held update of an order whose algo order was reported since, with its `algoRef`. */
  private withAlgoRefOn(event: OrderUpdateEvent): OrderUpdateEvent {
    const order = this.withAlgoRef(event.order);
    return order === event.order ? event : { ...event, order };
  }

  /**
   * The registry key of an update's order, or of a fill's: its clientOrderId, else (the venue gave
   * none) the key of the order the fill's orderId names ({@link orderKey}).
   */
  private keyOf(event: OrderUpdateEvent | ExecutionEvent): string {
    if (event.kind === 'order') return orderKey(event.order);
    const { execution } = event;
    if (execution.clientOrderId !== '') return execution.clientOrderId;
    return orderKey(this.state.orders.byId.get(execution.orderId) ?? execution);
  }

  private ownerOf(ref: string): StrategyRunner | undefined {
    const id = this.state.orders.ownerOf(ref);
    return id === undefined ? undefined : this.byId.get(id);
  }
}

function deliver(runner: StrategyRunner, event: OrderUpdateEvent | ExecutionEvent): void {
  if (event.kind === 'order') runner.deliverOrder(event.order);
  else runner.deliverFill(event.execution);
}

function isClose(event: CommandRejectedEvent): boolean {
  return event.intentKind === 'closePosition' || event.intentKind === 'closePositions';
}

/** The sentence a strategy reads for a refusal, saying whether it may send the command again. */
function refusalReason(event: CommandRejectedEvent, lookedUp: boolean): string {
  const what = `${event.intentKind} ${event.ref}`;
  switch (event.code) {
    case COMMAND_OUTCOME_UNKNOWN:
      return `no answer from the venue to ${what}, which may have taken effect: ${event.message}${lookedUp ? '; its orders are looked up' : ''}`;
    case COMMAND_NOT_APPLIED:
      return `${what} did not take effect (safe to send again): ${event.message}`;
    default:
      return `the venue refused ${what}: ${event.message} (code ${event.code})${lookedUp ? '; its orders are looked up' : ''}`;
  }
}
