import {
  type AlgoOrderRecord,
  DENIAL_CODEC,
  type DenialRecord,
  EntryBatches,
  EXECUTION_CODEC,
  type FillRecord,
  LiquidationJournal,
  type OrderRecord,
  type RecordLog,
  SpillDirectory,
  SpillLog,
  TrailingStopLog,
} from '../../backtest/report/index.ts';
import {
  type CreationOrderJournalOptions,
  denialRecordOf,
  OrderJournal,
} from '../../backtest/runner/index.ts';
import { isNewerOrderUpdate } from '../../core/execution/index.ts';
import { BookedFills, type IntentDenied, orderKey } from '../../core/kernel/index.ts';
import {
  type AlgoOrder,
  type Execution,
  isFinalOrderState,
  type Order,
  type UserEvent,
} from '../../core/model/index.ts';
import type { TimerPort } from '../../core/venue/index.ts';
import { EARLY_ALGO_CHILDREN_WAIT_MS, EarlyAlgoChildren } from './early-algo-children.ts';
import { type HoldingSpend, HoldingSpends } from './holding-spends.ts';
import { OrderRejections } from './order-rejections.ts';
import type { RunMetrics } from './run-metrics.ts';
import { type OpenAlgoRef, SessionAlgoOrders } from './session-algo-orders.ts';

/** Where a session's journal keeps its orders, fills, algo orders and denials, and the journal's sizes. */
export interface UserDataJournalOptions {
  /** The session's spill directory (default: one of the journal's own, removed by {@link UserDataJournal.dispose}). */
  readonly dir?: SpillDirectory;
  /** Window and run sizes of the order journal (small in tests). */
  readonly orderJournal?: CreationOrderJournalOptions;
  /** Fills held as they are before they go to the file (default the spill log's). */
  readonly fillsInMemory?: number;
  /** Window and run sizes of the algo order journal (small in tests). */
  readonly algoJournal?: CreationOrderJournalOptions;
  /** Denials held as they are before they go to the file (default the spill log's). */
  readonly denialsInMemory?: number;
  /**
   * Told once when an order carrying take-profit / stop-loss fields reaches a final state with
   * fills: its legs may then be asked of the venue (see AttachedLegLookups).
   */
  readonly onAttachedParentEnded?: (parent: OrderRecord) => void;
  /**
   * Told once of each order that ended REJECTED (by the venue, or by the adapter for one it could
   * not send or never heard of), with the strategy owning it when known.
   */
  readonly onRejected?: (order: Order, strategyId: string | undefined) => void;
  /** The syms whose holdings may pay loan interest in their coin (see {@link HoldingSpends}); default none. */
  readonly coinSyms?: ReadonlySet<string>;
  /**
   * Times the wait of what the journal holds back (see {@link EarlyAlgoChildren}) on the session's
   * clock, so it ends on time when no event follows; default none: it ends at the first event
   * {@link EARLY_ALGO_CHILDREN_WAIT_MS} of venue time later, or when the session ends.
   */
  readonly timer?: TimerPort;
}

/** What a session's journal hands to its result once the session stopped. */
export interface FinishedUserData {
  /** Every order in its latest state, with the strategy owning it when known, in first-seen order. */
  readonly orders: RecordLog<OrderRecord>;
  /** Every fill, in arrival order, with the strategy owning its order when known. */
  readonly fills: RecordLog<FillRecord>;
  /** Every algo order in its last state with its steps, in creation order. */
  readonly algoOrders: RecordLog<AlgoOrderRecord>;
  /** Every denied intent and refused command, in the order the kernel reported them. */
  readonly denials: RecordLog<DenialRecord>;
  /** What left spot holdings without a fill, placed among the fills. */
  readonly holdingSpends: readonly HoldingSpend[];
}

/**
 * Whether an order update ends an order that carries take-profit / stop-loss fields, with fills.
 * @param order - the order's new state
 * @param before - its state before, undefined when first seen
 * @returns true once per such order
 */
function endedWithAttachments(order: Order, before: Order | undefined): boolean {
  if (order.tp === undefined && order.sl === undefined) return false;
  if (!isFinalOrderState(order.orderState) || !order.executedQty.gt(0)) return false;
  return before === undefined || !isFinalOrderState(before.orderState);
}

/**
 * What a live or paper session keeps of the venue's User Data stream for its result: the fills,
 * the latest state of every order and algo order (with the strategy owning it), the rejections,
 * the liquidations, the intents the kernel denied and the coin that left spot holdings without a
 * fill; fills and acks are also counted in the session's metrics. Orders, fills, algo orders and
 * denials go to spill files as a backtest's do (the same {@link OrderJournal},
 * {@link AlgoOrderJournal} and {@link SpillLog}): a finished order or algo order leaves memory,
 * and fills beyond the first few thousand are on file, so a session of weeks holds only its open
 * orders. A fill the venue pushed twice (a duplicate push, a replay
 * after a reconnect) counts once, by transactionId, with the kernel's own {@link BookedFills}; an order update goes
 * through the order state machine, so a stale or duplicate one never overwrites a newer state.
 * An update of an order that finished (the venue's final word) is ignored while the order is
 * among the last 4096 that finished; one arriving later still would list the order again
 * (Keel's choice: a late copy that far behind does not occur on the venue's streams).
 */
export class UserDataJournal {
  /** Orders placed and refused, for the session's warnings. */
  readonly rejections = new OrderRejections();
  /** Liquidation events and positions, for the result. */
  readonly liquidations = new LiquidationJournal();
  /** The trailing stops the kernel emulated (not venue events: the session feeds the kernel's reports here). */
  readonly trailingStops = new TrailingStopLog();
  /** Coin that left spot holdings without a fill (loan interest), found in the position reports. */
  readonly holdingSpends: HoldingSpends;
  /**
   * The orders each strategy sliced in one hook call (the session notes each placement as it is
   * sent), so the trade list counts them as one order's, as a backtest's does. The trades are
   * paired when the session ends: in a session of more placements than it remembers, the earliest
   * orders count as batches of their own.
   */
  readonly batches = new EntryBatches();
  private readonly fills: SpillLog<FillRecord>;
  private readonly orders: OrderJournal;
  private readonly algoOrders: SessionAlgoOrders;
  private readonly denials: SpillLog<DenialRecord>;
  private readonly bookedFills = new BookedFills();
  /** Updates and fills of orders naming an algo order not seen yet, held for its owner. */
  private readonly early = new EarlyAlgoChildren();
  private readonly timer: TimerPort | undefined;
  /** Cancels the timer armed for the oldest event held, when one is. */
  private cancelExpiry: (() => void) | undefined;
  /** When the armed timer fires, on the timer's clock. */
  private expiryAt: number | undefined;
  private finished = false;
  /** The spill directory the journal made itself, removed by {@link dispose}. */
  private readonly ownDir: SpillDirectory | undefined;
  private readonly onAttachedParentEnded: ((parent: OrderRecord) => void) | undefined;
  private readonly onRejected: ((order: Order, strategyId: string | undefined) => void) | undefined;

  /**
   * @param metrics - the session's metrics (fills, acknowledged orders)
   * @param onFill - called on every fill (e.g. to print it)
   * @param ownerOf - the strategy owning an order's key (its clientOrderId, or the key made from
   *   its orderId when it has none: `orderKey`) or a clientAlgoOrderId (the kernel's record),
   *   undefined for orders nobody in the session placed
   * @param options - the spill directory and sizes
   * @throws Error (from fs) when the spill files cannot be created
   */
  constructor(
    private readonly metrics: RunMetrics,
    private readonly onFill: ((fill: Execution) => void) | undefined,
    private readonly ownerOf: (ref: string) => string | undefined = () => undefined,
    options: UserDataJournalOptions = {},
  ) {
    this.onAttachedParentEnded = options.onAttachedParentEnded;
    this.onRejected = options.onRejected;
    this.timer = options.timer;
    this.holdingSpends = new HoldingSpends(options.coinSyms ?? new Set());
    this.ownDir = options.dir === undefined ? new SpillDirectory('keel-session-') : undefined;
    const dir = options.dir ?? (this.ownDir as SpillDirectory);
    // By reference: the adapter's own REJECTED of an order carries no orderId, the venue's does.
    this.orders = new OrderJournal(dir, {
      ...options.orderJournal,
      keyOf: (order) => order.clientOrderId || order.orderId,
    });
    this.fills = new SpillLog(
      dir,
      'fills',
      EXECUTION_CODEC,
      options.fillsInMemory === undefined ? {} : { keepInMemory: options.fillsInMemory },
    );
    this.algoOrders = new SessionAlgoOrders(dir, ownerOf, options.algoJournal);
    this.denials = new SpillLog(
      dir,
      'denials',
      DENIAL_CODEC,
      options.denialsInMemory === undefined ? {} : { keepInMemory: options.denialsInMemory },
    );
  }

  /**
   * Takes one User Data event. What waited past its time (by this event's venue time) is recorded
   * first, as it came first.
   * @param event - the event as the execution client emitted it
   */
  observe(event: UserEvent): void {
    for (const expired of this.early.expired(event.ts)) this.record(expired);
    if (!this.heldBack(event)) {
      const fillsBefore = event.kind === 'order' ? this.early.fillsBefore(event.order.orderId) : [];
      // Asked before the update is recorded: a fired order's update ends the algo order it names.
      const owner =
        event.kind === 'order' && fillsBefore.length > 0 ? this.ownerOfOrder(event.order) : undefined;
      this.record(event);
      for (const fill of fillsBefore) this.record(fill, owner);
    }
    if (event.kind === 'algoOrder') {
      const { algoOrder } = event;
      this.recordHeld(algoOrder, this.ownerOf(algoOrder.clientAlgoOrderId));
    }
    this.armExpiry();
  }

  /**
   * Holds back an update or fill of an order owned by no strategy that names an algo order not
   * seen yet, and a fill owned by no strategy of an order not seen yet (see {@link EarlyAlgoChildren}).
   */
  private heldBack(event: UserEvent): boolean {
    const heldAt = this.timer?.now();
    if (event.kind === 'order') {
      const { order } = event;
      if (this.ownerOf(orderKey(order)) !== undefined || this.algoOwner(order) !== undefined) return false;
      return (
        this.orders.ownerOf(order.clientOrderId || order.orderId) === undefined &&
        this.early.holdOrder(event, heldAt)
      );
    }
    if (event.kind !== 'execution' || this.ownerOf(orderKey(event.execution)) !== undefined) return false;
    const key = event.execution.clientOrderId || event.execution.orderId;
    const unseen = this.orders.current(key) === undefined && !this.orders.finishedRecently(key);
    return this.early.holdFill(event, unseen, heldAt);
  }

  /**
   * Arms the timer (when the journal has one) for the oldest event held on it, unless it is armed
   * for that time already: what waited is recorded when due, though no event follows.
   */
  private armExpiry(): void {
    if (this.timer === undefined || this.finished) return;
    const due = this.early.nextDue();
    if (due === this.expiryAt) return;
    this.cancelExpiry?.();
    this.cancelExpiry = undefined;
    this.expiryAt = due;
    if (due === undefined) return;
    const timer = this.timer;
    this.cancelExpiry = timer.setTimer(
      () => {
        this.cancelExpiry = undefined;
        this.expiryAt = undefined;
        for (const expired of this.early.expiredOnTimer(timer.now())) this.record(expired);
        this.armExpiry();
      },
      Math.max(1, due - timer.now()),
    );
  }

  /** An algo order was reported: what its orders' updates and fills waited for it is recorded as its owner's. */
  private recordHeld(algoOrder: AlgoOrder, owner: string | undefined): void {
    this.early.sawAlgo(algoOrder.algoOrderId);
    const held = this.early.release(algoOrder.algoOrderId);
    const strategyId = owner ?? this.algoOrders.ownerOfOpen(algoOrder.algoOrderId);
    for (const event of held) this.record(event, strategyId);
  }

  /** Records one event; `owner`, when given, is the strategy of an order update's or fill's order. */
  private record(event: UserEvent, owner?: string): void {
    if (event.kind === 'execution') {
      if (!this.bookedFills.book(event.execution.transactionId)) return;
      const strategyId = owner ?? this.ownerOf(orderKey(event.execution));
      this.fills.append(strategyId === undefined ? event.execution : { ...event.execution, strategyId });
      this.holdingSpends.fill(event.execution, this.fills.length);
      this.metrics.fills.inc();
      this.onFill?.(event.execution);
    } else if (event.kind === 'order') {
      this.foldOrder(event.order, owner);
      if (event.order.orderState === 'REJECTED') this.metrics.refused(event.order.clientOrderId);
      else this.metrics.acknowledged(event.order.clientOrderId);
      if (event.order.algoOrderId) this.algoOrders.fired(event.order.algoOrderId, event.order);
    } else if (event.kind === 'algoOrder') {
      this.algoOrders.fold(event.algoOrder);
    } else if (event.kind === 'position') {
      this.holdingSpends.position(event.position, event.ts, this.fills.length);
    } else if (event.kind === 'liquidationEvent' || event.kind === 'liquidationPosition') {
      this.liquidations.observe(event);
    } else if (event.kind === 'commandRejected') {
      this.rejections.observeCommand(event);
    }
  }

  /** An order update, unless it is stale: the journal holds the open orders, a finished one is ignored. */
  private foldOrder(order: Order, knownOwner: string | undefined): void {
    const key = order.clientOrderId || order.orderId;
    const known = this.orders.current(key);
    const newer = known === undefined ? !this.orders.finishedRecently(key) : isNewerOrderUpdate(known, order);
    if (!newer) return;
    const owner = knownOwner ?? this.ownerOfOrder(order);
    this.orders.update(order, owner);
    if (this.rejections.observe(order, known)) this.onRejected?.(order, owner);
    if (endedWithAttachments(order, known))
      this.onAttachedParentEnded?.(owner === undefined ? order : { ...order, strategyId: owner });
  }

  /** The strategy owning an order: the kernel's record, the algo order it names, or the journal's own. */
  private ownerOfOrder(order: Order): string | undefined {
    return (
      this.ownerOf(orderKey(order)) ??
      this.algoOwner(order) ??
      this.orders.ownerOf(order.clientOrderId || order.orderId)
    );
  }

  /**
   * The owner of the open algo order an order names (the order it sent when it fired): the journal
   * sees an order before the kernel records the owner it inherits from that algo order.
   */
  private algoOwner(order: Order): string | undefined {
    return order.algoOrderId ? this.algoOrders.ownerOfOpen(order.algoOrderId) : undefined;
  }

  /**
   * Takes a take-profit / stop-loss leg the venue reported attached to an order (its algo order
   * history, see AttachedLegLookups), owned by its parent's strategy unless its own reference names one.
   * @param leg - the algo order as the venue reported it
   * @param parentOwner - the strategy owning the parent order, when known
   */
  attachedLeg(leg: AlgoOrder, parentOwner: string | undefined): void {
    this.algoOrders.fold(leg, parentOwner);
    this.recordHeld(leg, this.ownerOf(leg.clientAlgoOrderId) ?? parentOwner);
  }

  /**
   * Takes an intent the kernel denied (or a command the venue refused), as the strategy was told.
   * @param denial - the kernel's denial
   */
  denied(denial: IntentDenied): void {
    this.denials.append(denialRecordOf(denial));
  }

  /** Fills recorded so far. */
  get fillCount(): number {
    return this.fills.length;
  }

  /** Orders held in memory now: the open ones (and any a state Keel synthesized ended). */
  get heldOrderCount(): number {
    return this.orders.openCount;
  }

  /** Denials recorded so far. */
  get deniedCount(): number {
    return this.denials.length;
  }

  /** Algo orders open now: the only ones held in memory. */
  get openAlgoCount(): number {
    return this.algoOrders.openCount;
  }

  /**
   * The references of the algo orders the session's record still has open (NEW): what it may ask
   * the venue about at the end, as a cancel-all or a stop's cancel names no algo order.
   * @returns each one's clientAlgoOrderId, or the venue's algoOrderId when it has none (an
   *   attached leg the venue named no reference for), in first-seen order
   */
  openAlgoRefs(): OpenAlgoRef[] {
    return this.algoOrders.openRefs();
  }

  /**
   * Ends the record (once the session stopped): the orders and algo orders still open are
   * written in their last state, and the fills and denials sealed. Nothing may be observed afterwards.
   * @returns every order and algo order (in first-seen order), every fill (in arrival order) and
   *   every denial (in the order reported), and what left spot holdings without a fill
   */
  finish(): FinishedUserData {
    this.finished = true;
    this.cancelExpiry?.();
    for (const held of this.early.drain()) this.record(held);
    return {
      orders: this.orders.finish(),
      fills: this.fills.seal(),
      algoOrders: this.algoOrders.finish(),
      denials: this.denials.seal(),
      holdingSpends: this.holdingSpends.finish(),
    };
  }

  /** Removes the spill files when the journal made its own directory (iterating what {@link finish} returned then throws). */
  dispose(): void {
    this.cancelExpiry?.();
    this.ownDir?.dispose();
  }

  /**
   * Marks where the session starts trading, once the first reconciliation is folded: the holdings
   * reported so far are where they start (the session's fills explain the rest), and the open
   * orders seen so far were placed before the session, so its rejection warnings count them out.
   */
  startTrading(): void {
    this.holdingSpends.startTrading();
    this.rejections.startTrading();
  }

  /**
   * Orders the venue still holds open, by the session's own record (the kernel has stopped listening).
   * @returns the orders, in first-seen order
   */
  openOrders(): Order[] {
    const open: Order[] = [];
    for (const order of this.orders.openOrders())
      if (['NEW', 'OPEN', 'PARTIALLY_FILLED'].includes(order.orderState)) open.push(order);
    return open;
  }
}
