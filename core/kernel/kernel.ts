import type { Observable, Subscription } from 'rxjs';
import { Subject } from 'rxjs';
import type { ExecutionPort } from '../execution/index.ts';
import type {
  BarEvent,
  BarInterval,
  Intent,
  KeelEvent,
  MarketEvent,
  Order,
  PlaceOrderIntent,
  UserEvent,
} from '../model/index.ts';
import { isFinalOrderState, positionKey, ZERO } from '../model/index.ts';
import { BarAggregator } from './bar-aggregator.ts';
import type { KernelDenial } from './intent-ownership.ts';
import { ownershipCheck, refLengthCheck } from './intent-ownership.ts';
import type { IntentGate, KernelOptions } from './kernel-options.ts';
import { KernelState } from './kernel-state.ts';
import { mergeByTime } from './merge-by-time.ts';
import type { Scheduler } from './scheduler.ts';
import type { IntentDenied } from './strategy-events.ts';
import { StrategyRunner } from './strategy-runner.ts';
import type { ScheduledTimer } from './timer-queue.ts';
import { TimerQueue } from './timer-queue.ts';

/** A strategy hook or stream threw: the strategy is halted (no more hooks or intents), the run goes on. */
export interface StrategyFault {
  readonly strategyId: string;
  /** The hook or stream that threw, e.g. `onQuote`. */
  readonly where: string;
  readonly error: unknown;
  readonly ts: number;
}

/** Work that arrived while the kernel was busy: an event, a denial to deliver, or a timer wake-up. */
type Job =
  | KeelEvent
  | { readonly kind: 'deliverDenial'; readonly runner: StrategyRunner; readonly denial: IntentDenied }
  | { readonly kind: 'wake' };

const WAKE: Job = { kind: 'wake' };
const STRATEGY_ID = /^[A-Za-z0-9_]{1,24}$/;
const RUN_ID = /^[A-Za-z0-9]{0,8}$/;

/**
 * The kernel: one single-threaded loop that folds market and User Data events into one
 * {@link KernelState}, drives every strategy, and passes every intent through the kernel's own
 * checks (references, ownership) and the risk gate to the execution port. It does not know
 * whether it runs a backtest, paper or live session: that is only which sources, port and
 * scheduler it was given.
 *
 * Work is strictly sequential: an event (or a denial, or a timer) that arrives while another is
 * being handled - e.g. a venue answer emitted synchronously from `submit` - is queued and
 * handled right after, so hooks never run re-entrantly and the order of work is deterministic.
 * @example
 * const kernel = new Kernel({ instruments, market, execution: sim, gate, scheduler: virtualScheduler(), strategies: [{ id: 'mm1', strategy: marketMaker, params: { sym } }] });
 * await kernel.start();   // resolves when the market feed completes
 * kernel.stop();
 */
export class Kernel {
  /** The folded state; also the risk gate's view. */
  readonly state: KernelState;
  /** Every denial of every strategy, for logs and reports. */
  readonly denials: Observable<IntentDenied>;
  /** Strategies that threw and were halted. */
  readonly faults: Observable<StrategyFault>;
  private readonly runners: StrategyRunner[];
  private readonly byId = new Map<string, StrategyRunner>();
  private readonly scheduler: Scheduler;
  private readonly followsEventTime: boolean;
  private readonly execution: ExecutionPort;
  private readonly gate: IntentGate;
  private readonly timers = new TimerQueue();
  private readonly aggregator = new BarAggregator();
  private readonly barWatchers = new Map<string, StrategyRunner[]>();
  /** References strategies chose themselves (generated ones are unique by construction). */
  private readonly customRefs = new Set<string>();
  /** transactionIds already booked: a fill delivered twice (replay, reconnect) counts once. */
  private readonly seenFills = new Set<string>();
  private readonly backlog: Job[] = [];
  private readonly denial$ = new Subject<IntentDenied>();
  private readonly fault$ = new Subject<StrategyFault>();
  private readonly market: Observable<MarketEvent>;
  private readonly user: Observable<UserEvent>;
  private subscriptions: Subscription[] = [];
  private backlogHead = 0;
  private busy = false;
  private nextTimerId = 1;
  /** The timer whose hook is running: a repeating timer may cancel itself from its own hook. */
  private firing: ScheduledTimer | undefined;
  private armedAt = Number.POSITIVE_INFINITY;
  private readonly emitBar = (bar: BarEvent): void => this.onBar(bar);
  private readonly wake = (): void => this.enqueue(WAKE);

  /**
   * @param options - instruments, sources, execution port, risk gate, scheduler and strategies
   * @throws TypeError when a strategy id or the run id is malformed or repeated, or when a
   *   strategy's parameters do not match its schema (the message names the strategy and field)
   */
  constructor(options: KernelOptions) {
    this.scheduler = options.scheduler;
    this.followsEventTime = options.scheduler.followsEventTime;
    this.execution = options.execution;
    this.gate = options.gate;
    this.state = new KernelState(options.scheduler.clock, options.instruments, options.portfolio);
    this.market = Array.isArray(options.market)
      ? mergeByTime(options.market as readonly Observable<MarketEvent>[])
      : (options.market as Observable<MarketEvent>);
    this.user = options.user ?? options.execution.events;
    this.denials = this.denial$.asObservable();
    this.faults = this.fault$.asObservable();
    const runId = options.runId ?? '';
    if (!RUN_ID.test(runId))
      throw new TypeError(`kernel: runId ${JSON.stringify(runId)} must be 0-8 letters or digits`);
    this.runners = options.strategies.map((slot, index) => {
      if (!STRATEGY_ID.test(slot.id)) {
        throw new TypeError(
          `kernel: strategy id ${JSON.stringify(slot.id)} must be 1-24 of A-Z, a-z, 0-9, _`,
        );
      }
      if (this.byId.has(slot.id)) throw new TypeError(`kernel: strategy id ${slot.id} is used twice`);
      const parsed = slot.strategy.params.safeParse(slot.params ?? {});
      if (!parsed.success) {
        const issues = parsed.error.issues
          .map((i) => `${i.message} → at params.${i.path.join('.')}`)
          .join('; ');
        throw new TypeError(`kernel: strategy ${slot.id} (${slot.strategy.name}): ${issues}`);
      }
      const runner = new StrategyRunner(slot.id, index, slot.strategy, parsed.data, runId, this);
      this.byId.set(slot.id, runner);
      return runner;
    });
  }

  /**
   * Starts the strategies (`setup`, then `onStart`) and subscribes to User Data, then market
   * data. With a synchronous (recorded) feed the whole run happens inside this call.
   * @returns a promise that resolves when the market feed completes and rejects if a source errors
   */
  start(): Promise<void> {
    this.run(() => {
      for (const runner of this.runners) runner.start();
    });
    return new Promise<void>((resolve, reject) => {
      this.subscriptions.push(
        this.user.subscribe({ next: (event) => this.push(event), error: (error: unknown) => reject(error) }),
      );
      this.subscriptions.push(
        this.market.subscribe({
          next: (event) => this.push(event),
          error: (error: unknown) => reject(error),
          complete: () => resolve(),
        }),
      );
    });
  }

  /** Calls every strategy's `onStop` (intents returned there are still sent), then unsubscribes. */
  stop(): void {
    this.run(() => {
      for (const runner of this.runners) runner.stop();
    });
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.subscriptions = [];
    this.scheduler.cancelWake();
  }

  /**
   * Handles one event: fires timers it passes (virtual time), folds it into the state and
   * delivers it to the strategies. The per-event hot path: no allocation, no Decimal work.
   * @param event - a market or User Data event
   */
  push(event: KeelEvent): void {
    this.enqueue(event);
  }

  /**
   * Moves virtual time to `ts`, firing the timers it passes (e.g. at the end of a backtest).
   * @param ts - epoch ms
   */
  advanceTime(ts: number): void {
    this.run(() => {
      if (this.followsEventTime) {
        this.fireTimers(ts);
        this.scheduler.advanceTo(ts);
      }
      this.aggregator.closeDue(ts, this.emitBar);
    });
  }

  private enqueue(job: Job): void {
    if (this.busy) {
      this.backlog.push(job);
      return;
    }
    this.busy = true;
    try {
      this.handle(job);
      if (this.backlog.length > 0) this.drain();
    } finally {
      this.busy = false;
    }
  }

  private run(work: () => void): void {
    if (this.busy) {
      work();
      return;
    }
    this.busy = true;
    try {
      work();
      if (this.backlog.length > 0) this.drain();
    } finally {
      this.busy = false;
    }
  }

  /** FIFO over the backlog; re-entrant (a timer fired while draining drains too) through the shared head. */
  private drain(): void {
    const backlog = this.backlog;
    while (this.backlogHead < backlog.length) {
      const job = backlog[this.backlogHead++] as Job;
      this.handle(job);
    }
    backlog.length = 0;
    this.backlogHead = 0;
  }

  private handle(job: Job): void {
    switch (job.kind) {
      case 'deliverDenial':
        job.runner.deliverDenial(job.denial);
        return;
      case 'wake':
        this.fireTimers(this.scheduler.clock.now());
        return;
    }
    const ts = job.ts;
    if (this.followsEventTime) {
      if (this.timers.nextAt <= ts) this.fireTimers(ts);
      this.scheduler.advanceTo(ts);
    }
    if (this.aggregator.nextClose <= ts) {
      // A feed bar switches aggregation off before it could close a bar of its own (sym, interval).
      if (job.kind === 'bar') this.aggregator.onFeedBar(job);
      this.aggregator.closeDue(ts, this.emitBar);
    }
    const runners = this.runners;
    const state = this.state;
    switch (job.kind) {
      case 'quote':
        state.quotes.set(job.sym, job);
        for (let i = 0; i < runners.length; i++) (runners[i] as StrategyRunner).deliverQuote(job);
        return;
      case 'trade':
        state.trades.set(job.sym, job);
        this.aggregator.onTrade(job, this.emitBar);
        for (let i = 0; i < runners.length; i++) (runners[i] as StrategyRunner).deliverTrade(job);
        return;
      case 'bar':
        if (this.aggregator.onFeedBar(job)) {
          state.bars.set(`${job.sym}|${job.interval}`, job);
          if (job.closed) this.deliverBar(job);
        } else {
          state.bars.set(`${job.sym}|${job.interval}`, job);
        }
        return;
      case 'book':
        state.books.set(job.sym, job);
        return;
      case 'markPrice':
        state.marks.set(job.sym, job);
        return;
      case 'gap':
        return;
      default:
        this.foldUser(job);
    }
  }

  private foldUser(event: UserEvent): void {
    const state = this.state;
    switch (event.kind) {
      case 'order':
        if (state.orders.applyVenue(event.order))
          this.ownerOf(event.order.clientOrderId)?.deliverOrder(event.order);
        return;
      case 'execution':
        if (this.seenFills.has(event.execution.transactionId)) return;
        this.seenFills.add(event.execution.transactionId);
        state.portfolio?.applyFill(event.execution);
        this.ownerOf(event.execution.clientOrderId)?.deliverFill(event.execution);
        return;
      case 'position': {
        const p = event.position;
        state.positions.set(positionKey(p.sym, p.positionSide), p);
        if (p.adlRank > 0) state.adlRanks.set(positionKey(p.sym, p.positionSide), p.adlRank);
        for (const runner of this.runners) runner.deliverPosition(p);
        return;
      }
      case 'asset':
        state.assets.set(event.asset.coin, event.asset);
        return;
      case 'account':
        state.account = event.account;
        return;
      case 'liquidationEvent':
        if (state.liquidation?.liquidationEventId !== event.record.liquidationEventId) {
          state.liquidationPositions.length = 0;
        }
        state.liquidation = event.record;
        return;
      case 'liquidationPosition':
        state.liquidationPositions.push(event.record);
        return;
      case 'algoOrder':
        state.orders.applyAlgo(event.algoOrder);
        return;
      case 'adlRank':
        state.adlRanks.set(positionKey(event.sym, event.positionSide), event.rank);
        return;
      case 'loan':
        state.loans.set(`${event.loan.exchange}|${event.loan.coin}`, event.loan);
        return;
      case 'commandRejected': {
        const runner = this.ownerOf(event.ref);
        if (runner === undefined) return;
        this.deny(runner, {
          kind: 'denied',
          strategyId: runner.id,
          ref: event.ref,
          intentKind: event.intentKind,
          source: 'venue',
          check: `venue.${event.code}`,
          reason: `the venue refused ${event.intentKind} ${event.ref}: ${event.message} (code ${event.code})`,
          ts: this.state.now(),
        });
        return;
      }
    }
  }

  private ownerOf(ref: string): StrategyRunner | undefined {
    const id = this.state.orders.ownerOf(ref);
    return id === undefined ? undefined : this.byId.get(id);
  }

  // ---- RunnerHost: what strategies call ----

  /**
   * Passes one intent of a strategy through the kernel's checks and the risk gate to execution.
   * @param runner - the emitting strategy
   * @param intent - the intent
   */
  submit(runner: StrategyRunner, intent: Intent): void {
    if (!this.busy) {
      this.run(() => this.submit(runner, intent));
      return;
    }
    const failed =
      refLengthCheck(intent.ref) ??
      this.claimRef(runner, intent.ref) ??
      ownershipCheck(runner.id, intent, this.state.orders);
    if (failed !== undefined) {
      this.deny(runner, this.denial(runner, intent, 'kernel', failed.check, failed.reason));
      return;
    }
    const expanded = this.expand(runner, intent);
    for (const one of expanded) {
      if (one !== intent) runner.redeem(one.ref);
      const decision = this.gate.evaluate({ strategyId: runner.id, intent: one }, this.state);
      if (decision.kind === 'denied') {
        this.deny(runner, this.denial(runner, one, 'risk', decision.check, decision.reason));
        continue;
      }
      this.record(runner, one);
      this.execution.submit(decision.command);
    }
  }

  /**
   * Sets a timer for a strategy.
   * @returns the timer id
   */
  setTimer(runner: StrategyRunner, at: number, every: number, tag: string): number {
    const timer: ScheduledTimer = {
      id: this.nextTimerId++,
      owner: runner.index,
      tag,
      at,
      every,
      seq: 0,
      cancelled: false,
    };
    this.timers.push(timer);
    this.arm();
    return timer.id;
  }

  /**
   * Cancels a strategy's timer.
   * @returns true when a pending timer of this strategy was cancelled
   */
  cancelTimer(runner: StrategyRunner, id: number): boolean {
    const firing = this.firing;
    if (firing !== undefined && firing.id === id && firing.owner === runner.index && !firing.cancelled) {
      firing.cancelled = true;
      return true;
    }
    return this.timers.cancel(id, runner.index);
  }

  /** Registers a strategy for closed bars of a (sym, interval). */
  watchBars(runner: StrategyRunner, sym: string, interval: BarInterval): void {
    const key = `${sym}|${interval}`;
    const watchers = this.barWatchers.get(key) ?? [];
    if (!watchers.includes(runner)) watchers.push(runner);
    this.barWatchers.set(key, watchers);
    this.aggregator.watch(sym, interval);
  }

  /** Halts a strategy whose hook threw and reports it. */
  fault(runner: StrategyRunner, where: string, error: unknown): void {
    runner.halt();
    this.fault$.next({ strategyId: runner.id, where, error, ts: this.state.now() });
  }

  private fireTimers(upTo: number): void {
    for (;;) {
      const timer = this.timers.popDue(upTo);
      if (timer === undefined) break;
      if (this.followsEventTime) this.scheduler.advanceTo(timer.at);
      const runner = this.runners[timer.owner] as StrategyRunner;
      this.firing = timer;
      runner.deliverTimer({ kind: 'timer', id: timer.id, tag: timer.tag, ts: timer.at });
      this.firing = undefined;
      if (timer.every > 0 && !timer.cancelled && runner.live) {
        timer.at += timer.every;
        this.timers.push(timer);
      }
      if (this.backlog.length > 0) this.drain();
    }
    this.armedAt = Number.POSITIVE_INFINITY;
    this.arm();
  }

  private arm(): void {
    if (this.followsEventTime || this.timers.nextAt >= this.armedAt) return;
    this.armedAt = this.timers.nextAt;
    this.scheduler.wakeAt(this.armedAt, this.wake);
  }

  private onBar(bar: BarEvent): void {
    this.state.bars.set(`${bar.sym}|${bar.interval}`, bar);
    this.deliverBar(bar);
  }

  private deliverBar(bar: BarEvent): void {
    for (const runner of this.barWatchers.get(`${bar.sym}|${bar.interval}`) ?? []) runner.deliverBar(bar);
  }

  /**
   * A reference may be used once per run. Generated ones (`{id}-{n}`) are redeemed from their
   * strategy; others are remembered. A custom reference that looks like any strategy's generated
   * one is refused, so the two kinds never collide.
   */
  private claimRef(runner: StrategyRunner, ref: string): KernelDenial | undefined {
    if (ref.startsWith(runner.refPrefix) && runner.redeem(ref)) return undefined;
    for (const other of this.runners) {
      if (ref.startsWith(other.refPrefix)) {
        return {
          check: 'kernel.ref',
          reason:
            other === runner
              ? `reference ${ref} was already used in this run`
              : `reference ${ref} has the form of strategy ${other.id}'s generated references`,
        };
      }
    }
    if (this.customRefs.has(ref))
      return { check: 'kernel.ref', reason: `reference ${ref} was already used in this run` };
    this.customRefs.add(ref);
    return undefined;
  }

  /** cancelOrders without targets means "all of mine (on sym)"; cancelAllAlgoOrders must not touch others' algo orders. */
  private expand(runner: StrategyRunner, intent: Intent): readonly Intent[] {
    if (intent.kind === 'cancelOrders' && intent.targets === undefined) {
      const targets = this.state
        .openOrders(runner.id)
        .filter((o) => intent.sym === undefined || o.sym === intent.sym)
        .map((o) => o.clientOrderId);
      return targets.length === 0 ? [] : [{ ...intent, targets }];
    }
    if (intent.kind === 'cancelAllAlgoOrders') {
      const matching = this.state
        .openAlgoOrders()
        .filter(
          (a) =>
            (intent.sym === undefined || a.sym === intent.sym) &&
            (intent.algoOrderType === undefined || a.algoOrderType === intent.algoOrderType),
        );
      const mine = matching.filter((a) => this.state.orders.ownerOf(a.clientAlgoOrderId) === runner.id);
      if (mine.length === matching.length) return mine.length === 0 ? [] : [intent];
      return mine.map((a) => runner.order.cancelAlgo(a.clientAlgoOrderId));
    }
    return [intent];
  }

  /** Ownership and Keel's in-flight view are recorded before the port sees the command. */
  private record(runner: StrategyRunner, intent: Intent): void {
    const orders = this.state.orders;
    const now = this.state.now();
    switch (intent.kind) {
      case 'placeOrder':
        orders.own(intent.ref, runner.id);
        orders.applyLocal(this.pendingOrder(intent, now));
        return;
      case 'modifyOrder':
        this.markInFlight(intent.target, 'PENDING_REPLACE', now);
        return;
      case 'cancelOrder':
        this.markInFlight(intent.target, 'PENDING_CANCEL', now);
        return;
      case 'cancelOrders':
        for (const target of intent.targets ?? []) this.markInFlight(target, 'PENDING_CANCEL', now);
        return;
      case 'cancelAlgoOrder':
      case 'cancelAllAlgoOrders':
      case 'replaceAlgoOrder':
        return;
      default:
        // algo orders, closes, borrow, repay, position mode: the owner answers for a venue refusal
        orders.own(intent.ref, runner.id);
        return;
    }
  }

  private markInFlight(ref: string, orderState: 'PENDING_CANCEL' | 'PENDING_REPLACE', now: number): void {
    const order = this.state.orders.byRef.get(ref);
    if (order === undefined || isFinalOrderState(order.orderState) || order.orderState === 'PENDING_NEW')
      return;
    this.state.orders.applyLocal({ ...order, orderState, updateAt: now });
  }

  private pendingOrder(intent: PlaceOrderIntent, now: number): Order {
    return {
      orderId: '',
      clientOrderId: intent.ref,
      portfolioId: this.state.account?.portfolioId ?? '',
      sym: intent.sym,
      side: intent.side,
      orderType: intent.orderType,
      timeInForce: intent.timeInForce,
      orderState: 'PENDING_NEW',
      orderQty: intent.qty,
      limitPrice: intent.price ?? ZERO,
      executedQty: ZERO,
      executedAmount: ZERO,
      executedAvgPrice: ZERO,
      fee: ZERO,
      feeCoin: '',
      reduceOnly: intent.reduceOnly,
      positionSide: intent.positionSide,
      tp: intent.tp,
      sl: intent.sl,
      condition: intent.condition,
      expiryDate: intent.expiryDate,
      createAt: now,
      updateAt: now,
    };
  }

  private denial(
    runner: StrategyRunner,
    intent: Intent,
    source: IntentDenied['source'],
    check: string,
    reason: string,
  ): IntentDenied {
    return {
      kind: 'denied',
      strategyId: runner.id,
      ref: intent.ref,
      intentKind: intent.kind,
      intent,
      source,
      check,
      reason,
      ts: this.state.now(),
    };
  }

  private deny(runner: StrategyRunner, denial: IntentDenied): void {
    this.denial$.next(denial);
    this.backlog.push({ kind: 'deliverDenial', runner, denial });
  }
}
