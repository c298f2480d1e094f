import type { Observable, Subscription } from 'rxjs';
import { Subject } from 'rxjs';
import type { ExecutionPort, OrderTracker } from '../execution/index.ts';
import type { BarEvent, BarInterval, Intent, KeelEvent, MarketEvent, UserEvent } from '../model/index.ts';
import { BarAggregator } from './bar-aggregator.ts';
import { foldUserEvent } from './fold-user-event.ts';
import { IntentPipeline } from './intent-pipeline.ts';
import type { IntentGate, KernelOptions } from './kernel-options.ts';
import { KernelState } from './kernel-state.ts';
import { KERNEL_OWNER, KernelTimers } from './kernel-timers.ts';
import { mergeByTime } from './merge-by-time.ts';
import type { Scheduler } from './scheduler.ts';
import type { IntentDenied } from './strategy-events.ts';
import { StrategyRunner } from './strategy-runner.ts';
import { strictParams } from './strict-params.ts';
import type { ScheduledTimer } from './timer-queue.ts';

/**
 * A strategy hook or stream threw: the strategy is halted (no more hooks or intents), the run goes
 * on. `strategyId` is `kernel` when the kernel's own work failed (an in-flight lookup).
 */
export interface StrategyFault {
  readonly strategyId: string;
  /** The hook or stream that threw, e.g. `onQuote`. */
  readonly where: string;
  readonly error: unknown;
  readonly ts: number;
  /**
   * Set when nothing threw: the hook `returned` (the setup stream `emitted`) a value that is not
   * intents, e.g. `[undefined]` or an async hook's Promise. Absent for a throw.
   */
  readonly how?: 'returned' | 'emitted';
  /**
   * The strategy's plugin file ({@link StrategySlot.source}) when the composition root knows it:
   * the place to name when no stack frame can (a hook that returned a bad value is no longer on
   * the stack when the kernel checks it).
   */
  readonly source?: string;
}

/**
 * A Promise the kernel did not wait for (an async hook, setup or state factory, already reported
 * as a {@link StrategyFault}) rejected: the error the strategy's own async code raised. It comes a
 * microtask or more after the fault, at a time the run's events do not fix, so it is for logs and
 * consoles, never for result files.
 */
export interface StrategyRejection {
  readonly strategyId: string;
  /** What returned the Promise, e.g. `onBar`, `state`, or `ctx.submit` when it was given one. */
  readonly where: string;
  /** What the Promise rejected with. */
  readonly reason: unknown;
  /** The strategy's plugin file, when known (see {@link StrategyFault.source}). */
  readonly source?: string;
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
  /**
   * Rejections of the Promises of halted async strategies (see {@link StrategyRejection}): the
   * user's own error behind an "async hook" fault. Late and untimed: log them, do not record them.
   */
  readonly rejections: Observable<StrategyRejection>;
  private readonly runners: StrategyRunner[];
  private readonly byId = new Map<string, StrategyRunner>();
  private readonly scheduler: Scheduler;
  private readonly followsEventTime: boolean;
  private readonly execution: ExecutionPort;
  private readonly gate: IntentGate;
  private readonly timers: KernelTimers;
  private readonly aggregator = new BarAggregator();
  private readonly barWatchers = new Map<string, StrategyRunner[]>();
  private readonly pipeline: IntentPipeline;
  private readonly tracker: OrderTracker | undefined;
  private readonly inFlightCheckMs: number;
  private lookupRunning = false;
  private started = false;
  private readonly backlog: Job[] = [];
  private readonly denial$ = new Subject<IntentDenied>();
  private readonly fault$ = new Subject<StrategyFault>();
  private readonly rejection$ = new Subject<StrategyRejection>();
  private readonly market: Observable<MarketEvent>;
  private readonly user: Observable<UserEvent>;
  private subscriptions: Subscription[] = [];
  private backlogHead = 0;
  private busy = false;
  private readonly emitBar = (bar: BarEvent): void => this.onBar(bar);
  private readonly wake = (): void => this.enqueue(WAKE);
  private readonly fireTimer = (timer: ScheduledTimer): boolean => {
    if (timer.owner === KERNEL_OWNER) {
      this.checkInFlight();
      return true;
    }
    const runner = this.runners[timer.owner] as StrategyRunner;
    runner.deliverTimer({ kind: 'timer', id: timer.id, tag: timer.tag, ts: timer.at });
    if (this.backlog.length > 0) this.drain();
    return runner.live;
  };

  /**
   * @param options - instruments, sources, execution port, risk gate, scheduler and strategies
   * @throws TypeError when a strategy id or the run id is malformed or repeated, or when a
   *   strategy's parameters do not match its schema (the message names the strategy and field)
   */
  constructor(options: KernelOptions) {
    this.scheduler = options.scheduler;
    this.timers = new KernelTimers(options.scheduler, this.wake);
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
    this.rejections = this.rejection$.asObservable();
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
      const parsed = strictParams(slot.strategy.params).safeParse(slot.params ?? {});
      if (!parsed.success) {
        const issues = parsed.error.issues
          .map((i) => `${i.message} → at params.${i.path.join('.')}`)
          .join('; ');
        throw new TypeError(`kernel: strategy ${slot.id} (${slot.strategy.name}): ${issues}`);
      }
      const runner = new StrategyRunner(slot.id, index, slot.strategy, parsed.data, runId, this, slot.source);
      this.byId.set(slot.id, runner);
      return runner;
    });
    this.tracker = options.tracker;
    this.inFlightCheckMs = options.inFlightCheckMs ?? 1_000;
    this.pipeline = new IntentPipeline(
      this.state,
      options.gate,
      options.execution,
      this.runners,
      (runner, denial) => this.deny(runner, denial),
      options.tracker,
    );
  }

  /**
   * Starts the strategies (`setup`, then `onStart`) and subscribes to User Data, then market
   * data. With a synchronous (recorded) feed the whole run happens inside this call.
   * @returns a promise that resolves when the market feed completes and rejects if a source
   *   errors (or when the kernel was already started)
   */
  start(): Promise<void> {
    if (this.started)
      return Promise.reject(new Error('kernel: start() was called twice; build a new Kernel per run'));
    this.started = true;
    return new Promise<void>((resolve, reject) => {
      this.run(() => {
        // User Data first: a venue that answers inside submit (a synchronous sim) answers the
        // intents of onStart before start returns. Its events wait in the backlog until every
        // strategy has started.
        this.subscriptions.push(
          this.user.subscribe({
            next: (event) => this.push(event),
            error: (error: unknown) => reject(error),
          }),
        );
        for (const runner of this.runners) runner.start();
      });
      if (this.tracker !== undefined) {
        const every = this.inFlightCheckMs;
        this.timers.set(KERNEL_OWNER, this.state.now() + every, every, 'in-flight');
      }
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
    this.timers.disarm();
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
   * When the earliest armed timer (a strategy's or the kernel's own) is due. A backtest runner
   * reads it to fire timers at their own time, with the simulated venue moved there first, so an
   * order sent from a timer reaches the venue at that time plus latency, not at the next event.
   * @returns epoch ms; `Infinity` when no timer is armed
   */
  get nextTimerAt(): number {
    return this.timers.nextAt;
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
        if (job.closed) state.closedBars.set(job.sym, job);
        if (this.aggregator.onFeedBar(job)) {
          state.bars.set(`${job.sym}|${job.interval}`, job);
          if (job.closed) this.deliverBar(job);
        } else {
          state.bars.set(`${job.sym}|${job.interval}`, job);
        }
        if (job.closed) this.aggregator.onFinerBar(job, this.emitBar);
        return;
      case 'book':
        state.books.set(job.sym, job);
        return;
      case 'markPrice':
        state.marks.set(job.sym, job);
        return;
      case 'ticker':
      case 'indexPrice':
      case 'openInterest':
        // Informational channels: nothing in the kernel's state or a strategy's callbacks reads them yet.
        return;
      case 'gap':
        return;
      default:
        this.foldUser(job);
    }
  }

  private foldUser(event: UserEvent): void {
    if (event.kind === 'order') this.tracker?.onOrderUpdate(event.order);
    if (!foldUserEvent(this.state, event)) return;
    switch (event.kind) {
      case 'order':
        this.ownerOf(event.order.clientOrderId)?.deliverOrder(event.order);
        return;
      case 'execution':
        this.observeEquity();
        this.ownerOf(event.execution.clientOrderId)?.deliverFill(event.execution);
        return;
      case 'account':
        this.observeEquity();
        return;
      case 'position':
        for (const runner of this.runners) runner.deliverPosition(event.position);
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
      default:
        return;
    }
  }

  /** Money changed hands: let the kill switch see equity now rather than at the next intent. */
  private observeEquity(): void {
    if (this.gate.observeEquity !== undefined) this.gate.observeEquity(this.state.now(), this.state.equity());
  }

  private ownerOf(ref: string): StrategyRunner | undefined {
    const id = this.state.orders.ownerOf(ref);
    return id === undefined ? undefined : this.byId.get(id);
  }

  // RunnerHost: what strategies call.

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
    this.pipeline.submit(runner, intent);
  }

  /**
   * Sets a timer for a strategy.
   * @returns the timer id
   */
  setTimer(runner: StrategyRunner, at: number, every: number, tag: string): number {
    return this.timers.set(runner.index, at, every, tag);
  }

  /**
   * Cancels a strategy's timer.
   * @returns true when a pending timer of this strategy was cancelled
   */
  cancelTimer(runner: StrategyRunner, id: number): boolean {
    return this.timers.cancel(runner.index, id);
  }

  /** Registers a strategy for closed bars of a (sym, interval). */
  watchBars(runner: StrategyRunner, sym: string, interval: BarInterval): void {
    const key = `${sym}|${interval}`;
    const watchers = this.barWatchers.get(key) ?? [];
    if (!watchers.includes(runner)) watchers.push(runner);
    this.barWatchers.set(key, watchers);
    this.aggregator.watch(sym, interval);
  }

  /**
   * The (sym, interval) bars each strategy watches, for a run's end-of-run checks (a watched sym
   * the data never had). Not for the per-event path.
   * @returns one entry per strategy and (sym, interval), in the order they were first watched
   */
  watchedBars(): { readonly strategyId: string; readonly sym: string; readonly interval: BarInterval }[] {
    const out: { strategyId: string; sym: string; interval: BarInterval }[] = [];
    for (const [key, runners] of this.barWatchers) {
      const [sym, interval] = key.split('|') as [string, BarInterval];
      for (const runner of runners) out.push({ strategyId: runner.id, sym, interval });
    }
    return out;
  }

  /**
   * Halts a strategy whose hook threw (or returned a bad value) and reports it.
   * @param runner - the strategy
   * @param where - the hook or stream
   * @param error - what it threw, or the error describing what it returned
   * @param how - `returned` / `emitted` when it did not throw
   */
  fault(runner: StrategyRunner, where: string, error: unknown, how?: 'returned' | 'emitted'): void {
    runner.halt();
    this.fault$.next({
      strategyId: runner.id,
      where,
      error,
      ts: this.state.now(),
      ...(how === undefined ? {} : { how }),
      ...(runner.source === undefined ? {} : { source: runner.source }),
    });
  }

  /**
   * Reports what a halted strategy's unawaited Promise rejected with (see {@link Kernel.rejections}).
   * @param runner - the strategy
   * @param where - what returned the Promise
   * @param reason - the rejection reason
   */
  rejected(runner: StrategyRunner, where: string, reason: unknown): void {
    this.rejection$.next({
      strategyId: runner.id,
      where,
      reason,
      ...(runner.source === undefined ? {} : { source: runner.source }),
    });
  }

  private fireTimers(upTo: number): void {
    this.timers.fireDue(upTo, this.fireTimer);
  }

  /** Looks up overdue requests; the answers come back as order updates through {@link Kernel.push}. */
  private checkInFlight(): void {
    const tracker = this.tracker;
    if (tracker === undefined || this.lookupRunning) return;
    const now = this.state.now();
    const deadline = tracker.nextDeadline();
    if (deadline === undefined || deadline > now) return;
    this.lookupRunning = true;
    tracker.checkTimeouts(this.execution, now).then(
      (events) => {
        this.lookupRunning = false;
        for (const event of events) this.push(event);
      },
      (error: unknown) => {
        this.lookupRunning = false;
        this.fault$.next({ strategyId: 'kernel', where: 'in-flight lookup', error, ts: this.state.now() });
      },
    );
  }

  private onBar(bar: BarEvent): void {
    this.state.bars.set(`${bar.sym}|${bar.interval}`, bar);
    this.deliverBar(bar);
  }

  private deliverBar(bar: BarEvent): void {
    for (const runner of this.barWatchers.get(`${bar.sym}|${bar.interval}`) ?? []) runner.deliverBar(bar);
  }

  private deny(runner: StrategyRunner, denial: IntentDenied): void {
    this.denial$.next(denial);
    this.backlog.push({ kind: 'deliverDenial', runner, denial });
  }
}
