import type { Observable } from 'rxjs';
import { Subject } from 'rxjs';
import type {
  AlgoOrderUpdateEvent,
  BarInterval,
  CancelAlgoOrderIntent,
  CancelOrdersIntent,
  Intent,
  KeelEvent,
  OrderUpdateEvent,
  Position,
  StrategyIntent,
  UserEvent,
} from '../model/index.ts';
import type { AlgoChildGivenUp } from './algo-children-given-up.ts';
import type { LateBarInputs } from './bar-aggregator.ts';
import type { FillGivenUp } from './fill-given-up.ts';
import type { InFlightAlgoOrder, InFlightAlgoOrders } from './in-flight-algo-orders.ts';
import type { UnattributedCloseOrder } from './in-flight-closes.ts';
import type { IntentPipeline } from './intent-pipeline.ts';
import type { UnsentIntents } from './intent-tally.ts';
import { KernelFeeds } from './kernel-feeds.ts';
import { KernelLoop } from './kernel-loop.ts';
import type { KernelOptions } from './kernel-options.ts';
import { kernelPaths } from './kernel-paths.ts';
import { KernelState } from './kernel-state.ts';
import { KERNEL_TIMER_OWNER, KernelTimers } from './kernel-timers.ts';
import type { KernelWarmUp, WarmUpCoverage } from './kernel-warm-up.ts';
import { checkLimitedSyms } from './limited-sym-check.ts';
import { MarketRouting } from './market-routing.ts';
import type { IntentDenied } from './strategy-events.ts';
import type { StrategyFault, StrategyRejection } from './strategy-faults.ts';
import { StrategyFaultReports } from './strategy-faults.ts';
import type { StrategyRunner } from './strategy-runner.ts';
import { createRunners } from './strategy-slots.ts';
import { type SweepFailure, SweepRetries } from './sweep-retries.ts';
import type { TrailingStop } from './trailing-stop.ts';
import type { TrailingStopEmulator } from './trailing-stop-emulator.ts';
import { VenueConnectivity } from './venue-connectivity.ts';
import { WarmUpPhase } from './warm-up-phase.ts';

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
 *
 * After {@link Kernel.stop} (Keel's choice): no strategy hook runs and no timer fires. User Data
 * that still arrives until {@link Kernel.detach} (a look-up answered late, the venue's answer to
 * an `onStop` intent: a close's order, claimed for its strategy, and its fill) is folded into the
 * state, so the run's final orders, fills, positions and equity are the venue's, and a refused
 * modify or cancel puts its orders back to the venue's last word, and a refused command (an
 * `onStop` close the venue would not run) is reported in {@link Kernel.denials}, as one during
 * the run is; but it is delivered to no strategy and looks nothing up. Market data pushed after stop is dropped.
 * A stopped kernel cannot be started.
 * @example
 * const kernel = new Kernel({ instruments, market, execution: sim, gate, scheduler: virtualScheduler(), strategies: [{ id: 'mm1', strategy: marketMaker, params: { sym } }] });
 * await kernel.start();   // resolves when the market feed completes
 * kernel.stop();
 */
export class Kernel {
  /** The folded state; also the risk gate's view. */
  readonly state: KernelState;
  /** The venue's stream states as the kernel last heard them (always up without `venueStatus`). */
  readonly connectivity = new VenueConnectivity();
  /** Every denial of every strategy, for logs and reports. */
  readonly denials: Observable<IntentDenied>;
  /**
   * Every intent a strategy submitted, as the kernel takes it (before its own checks and the
   * risk gate), for metrics: the ones denied later are among them, Keel's own cancels are not.
   */
  readonly intents: Observable<StrategyIntent>;
  /** Strategies that threw and were halted. */
  readonly faults: Observable<StrategyFault>;
  /**
   * Orders a sweep ({@link Kernel.sendKeelCancel}) could not cancel: the venue refused its cancel
   * and every retry (see {@link SweepRetries}), so they keep working with no strategy managing them.
   */
  readonly sweepFailures: Observable<SweepFailure>;
  /**
   * Each User Data event the stopped kernel folded, told once it is folded (a close's order and
   * fill answering an `onStop` intent): a session's shutdown waits on it for what it needs of the
   * state instead of reading the state on a timer. Nothing before {@link Kernel.stop}.
   */
  readonly foldedAfterStop: Observable<UserEvent>;
  /**
   * Orders given up waiting for the algo order they name, which the venue did not report in time
   * (see `AWAITING_ALGO_CHILD_MS`): no strategy was told of them, nor of their fills.
   */
  readonly algoChildrenGivenUp: Observable<AlgoChildGivenUp>;
  /**
   * Fills given up waiting for their order's first update, which did not come in time (see
   * `FILL_AWAITING_ORDER_MS`): no strategy was told of them.
   */
  readonly fillsGivenUp: Observable<FillGivenUp>;
  /**
   * Every order update and algo order report the run folds while the strategies run, once in the
   * state and before any strategy hears of it (a stale or repeated one, which changes nothing, is
   * not told): what keeps a kill switch's sweep going on orders that become known after it.
   */
  readonly ordersFolded: Observable<OrderUpdateEvent | AlgoOrderUpdateEvent>;
  /**
   * Every position update the run folds while the strategies run, once in the state and before
   * any strategy hears of it: what keeps a kill switch's REDUCING sweep going as positions shrink.
   */
  readonly positionsFolded: Observable<Position>;
  /** See {@link KernelOptions.barsWholeFrom}. */
  private readonly barsWholeFrom: number | undefined;
  /**
   * The kernel's time when {@link Kernel.start} was called (User Data folded before it, a
   * backtest's funding, may have moved it from the time it was built): bars watched up to it are
   * watched as the run starts.
   */
  private startTs: number;
  /**
   * Every status change of every emulated trailing stop (accepted as PENDING, ACTIVE, TRIGGERED,
   * CANCELLED), as its strategy is told: for a run's outputs.
   */
  readonly trailingStops: Observable<TrailingStop>;
  /**
   * Rejections of the Promises of halted async strategies (see {@link StrategyRejection}): the
   * user's own error behind an "async hook" fault. Late and untimed: log them, do not record them.
   */
  readonly rejections: Observable<StrategyRejection>;
  private readonly timers: KernelTimers;
  private readonly marketRouting: MarketRouting;
  private readonly pipeline: IntentPipeline;
  /** The strategies, for the end-of-run reads of what each did ({@link Kernel.unsentIntents}). */
  private readonly runners: readonly StrategyRunner[];
  private readonly emulator: TrailingStopEmulator<StrategyRunner>;
  private readonly algosInFlight: InFlightAlgoOrders;
  private readonly trailingStop$ = new Subject<TrailingStop>();
  /** The single-threaded loop: the work queue, the start sequence and the stop. */
  private readonly loop: KernelLoop;
  private readonly denial$ = new Subject<IntentDenied>();
  private readonly intent$ = new Subject<StrategyIntent>();
  private readonly reports = new StrategyFaultReports();
  private readonly sweepFailure$ = new Subject<SweepFailure>();
  private readonly foldedAfterStop$ = new Subject<UserEvent>();
  private readonly algoChildGivenUp$ = new Subject<AlgoChildGivenUp>();
  private readonly fillGivenUp$ = new Subject<FillGivenUp>();
  private readonly orderFolded$ = new Subject<OrderUpdateEvent | AlgoOrderUpdateEvent>();
  private readonly positionFolded$ = new Subject<Position>();
  /** The sweeps' cancels the venue refused, sent again after a backoff. */
  private readonly sweepRetries: SweepRetries;
  /** The warm-up, if any (see {@link KernelWarmUp}). */
  private readonly warmUp: WarmUpPhase;

  /**
   * @param options - instruments, sources, execution port, risk gate, scheduler and strategies
   * @throws TypeError when a strategy id or the run id is malformed or repeated, when a
   *   strategy's parameters do not match its schema (the message names the strategy and field),
   *   or when a strategy's `syms` or the gate's `maxPositionQtyBySym` names a sym that is not
   *   one of the run's instruments
   */
  constructor(options: KernelOptions) {
    checkLimitedSyms(
      options.gate,
      options.instruments.map((spec) => spec.sym),
    );
    this.warmUp = new WarmUpPhase(
      options.warmUp,
      options.scheduler,
      options.instruments.map((spec) => spec.sym),
    );
    const scheduler = this.warmUp.scheduler;
    this.timers = new KernelTimers(scheduler, () => this.loop.wake());
    this.state = new KernelState(
      scheduler.clock,
      options.instruments,
      options.portfolio,
      options.closeOrdering,
    );
    this.barsWholeFrom = options.barsWholeFrom;
    this.startTs = this.state.now();
    const feeds = new KernelFeeds(
      options,
      (event) => this.push(event),
      (status) => this.loop.enqueue({ kind: 'venueStatus', status }),
    );
    this.denials = this.denial$.asObservable();
    this.intents = this.intent$.asObservable();
    this.faults = this.reports.faults;
    this.sweepFailures = this.sweepFailure$.asObservable();
    this.foldedAfterStop = this.foldedAfterStop$.asObservable();
    this.algoChildrenGivenUp = this.algoChildGivenUp$.asObservable();
    this.fillsGivenUp = this.fillGivenUp$.asObservable();
    this.ordersFolded = this.orderFolded$.asObservable();
    this.positionsFolded = this.positionFolded$.asObservable();
    this.rejections = this.reports.rejections;
    this.trailingStops = this.trailingStop$.asObservable();
    const runners = createRunners(options.strategies, options.runId ?? '', this);
    this.runners = runners;
    // A live or paper run (tagged) takes back its strategies' orders left by earlier runs.
    if ((options.runId ?? '') !== '')
      this.state.orders.adoptGeneratedRefsOf(new Set(runners.map((r) => r.id)));
    const paths = kernelPaths(options, {
      state: this.state,
      runners,
      deny: (runner, denial) => this.deny(runner, denial),
      recordDenial: (denial) => this.denial$.next(denial),
      push: (event) => this.push(event),
      trailingStopChanged: (runner, stop) => {
        this.trailingStop$.next(stop);
        this.loop.defer({ kind: 'deliverTrailingStop', runner, stop });
      },
      connectivity: this.connectivity,
      warmingUp: () => this.warmUp.denialReason(),
      hookCall: () => this.loop.turn,
      refusedCommand: (event) => this.sweepRetries.refused(event),
      venueSaid: (event) => this.sweepRetries.venueSaid(event),
      algoChildGivenUp: (report) => this.algoChildGivenUp$.next(report),
      fillGivenUp: (report) => this.fillGivenUp$.next(report),
      orderFolded: (event) => {
        if (this.orderFolded$.observed) this.orderFolded$.next(event);
      },
      positionFolded: (position) => {
        if (this.positionFolded$.observed) this.positionFolded$.next(position);
      },
      wakeAt: (at) => this.timers.set(KERNEL_TIMER_OWNER, at, 0, 'early orders and fills given up'),
    });
    this.emulator = paths.emulator;
    this.algosInFlight = paths.algosInFlight;
    const syms = options.instruments.map((spec) => spec.sym);
    this.marketRouting = new MarketRouting(
      this.state,
      options.strategies,
      runners,
      syms,
      this.emulator,
      options.keelStampsOnVenueClock ?? false,
    );
    this.pipeline = paths.pipeline;
    this.sweepRetries = new SweepRetries({
      state: this.state,
      send: (ownerId, intent) => this.pipeline.sendKeelCancel(ownerId, intent),
      algoInFlight: (ref) => this.algosInFlight.sentAs(ref) !== undefined,
      keelCancelInFlight: (ref) => this.pipeline.keelCancelInFlight(ref),
      wakeAt: (at) => this.timers.set(KERNEL_TIMER_OWNER, at, 0, 'sweep retry'),
      failed: (failure) => this.sweepFailure$.next(failure),
    });
    this.loop = new KernelLoop({
      feeds,
      runners,
      timers: this.timers,
      connectivity: this.connectivity,
      marketRouting: this.marketRouting,
      userRouting: paths.userRouting,
      equity: paths.equity,
      warmUp: this.warmUp,
      emulator: this.emulator,
      kernelTimerDue: (at) => {
        this.sweepRetries.wake(at);
        paths.userRouting.wake();
      },
      foldedAfterStop: (event) => {
        if (this.foldedAfterStop$.observed) this.foldedAfterStop$.next(event);
      },
    });
  }

  /**
   * Starts the strategies (`setup`, then `onStart`) and subscribes to User Data, then market
   * data. With a synchronous (recorded) feed the whole run happens inside this call.
   * With a warm-up on history (`KernelOptions.warmUp.history`) the strategies start on its
   * virtual time and see it before market data is subscribed to (see {@link Kernel.whenTrading}).
   * @param strategiesAfter - when given, User Data is subscribed to at once but the strategies
   *   start only once this settles, then market data is subscribed to: what arrives meanwhile
   *   (a live session's first reconciliation) is folded into the state, not delivered, so
   *   `onStart` sees the venue's book as it is rather than a flat one
   * @returns a promise that resolves when the market feed completes and rejects if a source
   *   errors, if `strategiesAfter` rejects, or when the kernel was already started or stopped
   */
  start(strategiesAfter?: Promise<unknown>): Promise<void> {
    // A refused second start leaves the first start's time: watches made then still count as at the start.
    if (this.loop.startable) this.startTs = this.state.now();
    return this.loop.start(strategiesAfter);
  }

  /**
   * True while the strategies warm up (see {@link KernelWarmUp}): every intent is denied.
   * @returns whether warming up
   */
  get warmingUp(): boolean {
    return this.warmUp.active;
  }

  /**
   * Resolves once a warm-up on history is over and the market feed is subscribed (at once without
   * one), with how much of the period the history covered.
   * @returns the coverage, or undefined when the kernel had no history to warm up on
   */
  whenTrading(): Promise<WarmUpCoverage | undefined> {
    return this.loop.trading;
  }

  /**
   * Ends the warm-up: from now on intents go through. A backtest calls it after feeding the
   * warm-up's events; a warm-up on history ends by itself. Nothing when not warming up.
   */
  endWarmUp(): void {
    this.warmUp.end();
    this.timers.rearm();
  }

  /**
   * Calls every started strategy's `onStop` (intents returned there are still sent), ends the
   * emulated trailing stops still open (CANCELLED, `runEnded`: see
   * {@link Kernel.trailingStopsEndedByStop}), then unsubscribes from market data. User Data that arrives afterwards is only folded (see
   * {@link Kernel}), until {@link Kernel.detach}.
   */
  stop(): void {
    this.loop.stop();
  }

  /**
   * Stops the kernel if it is not stopped yet, then unsubscribes from User Data too: a session
   * calls it once it has waited for the venue's answers to what the strategies sent.
   */
  detach(): void {
    this.loop.detach();
  }

  /**
   * Handles one event: fires timers it passes (virtual time), folds it into the state and
   * delivers it to the strategies. The per-event hot path: no allocation, no Decimal work. After
   * stop, User Data is only folded and market data dropped (see {@link Kernel}).
   * @param event - a market or User Data event
   */
  push(event: KeelEvent): void {
    this.loop.enqueue(event);
  }

  /**
   * When the earliest armed timer of a strategy is due. A backtest runner
   * reads it to fire timers at their own time, with the simulated venue moved there first, so an
   * order sent from a timer reaches the venue at that time plus latency, not at the next event.
   * @returns epoch ms; `Infinity` when no timer is armed
   */
  get nextTimerAt(): number {
    return this.timers.nextAt;
  }

  /**
   * Moves virtual time to `ts`, firing the timers it passes and closing the aggregated bars that
   * end by then (the end of a warm-up: its last bars close before trading starts).
   * @param ts - epoch ms
   */
  advanceTime(ts: number): void {
    this.loop.advanceTime(ts);
  }

  /**
   * Moves virtual time to `ts`, firing the timers it passes, as a backtest does before each
   * delivery and a lockstep paper session on each tick of the venue. Aggregated bars are not closed by it: `ts` is the receive clock, and a trade the
   * venue stamped inside a bar may be received after the bar's end, so bars close on the venue
   * stamps of the events (`MarketRouting.closeDueAt`), as in a live session.
   * @param ts - epoch ms
   */
  advanceTimers(ts: number): void {
    this.loop.advanceTimers(ts);
  }

  // RunnerHost: what strategies call.

  /**
   * Passes one intent of a strategy through the kernel's checks and the risk gate to execution.
   * @param runner - the emitting strategy
   * @param intent - the intent
   */
  submit(runner: StrategyRunner, intent: Intent): void {
    if (!this.loop.busy) {
      this.loop.run(() => this.submit(runner, intent));
      return;
    }
    if (this.intent$.observed) this.intent$.next({ strategyId: runner.id, intent });
    this.pipeline.submit(runner, intent);
  }

  /**
   * Sends Keel's own cancel of a strategy's orders (a sweep, see `cancelStrategyOrders`) the way
   * of the strategy's own cancels but for the kernel's checks: the risk gate (as strategy `keel`),
   * the in-flight bookkeeping under the owner, the execution port.
   * @param ownerId - the strategy whose orders or algo order it cancels
   * @param intent - the cancel
   * @returns whether the gate approved it (and it was sent)
   */
  sendKeelCancel(ownerId: string, intent: CancelOrdersIntent | CancelAlgoOrderIntent): boolean {
    let sent = false;
    // Noted first: a port may answer (refuse) before the send returns.
    this.sweepRetries.sweepSent(ownerId, intent);
    this.loop.run(() => {
      sent = this.pipeline.sendKeelCancel(ownerId, intent);
    });
    if (!sent) this.sweepRetries.notSent(intent.ref);
    return sent;
  }

  /**
   * Whether one of Keel's own cancels (a sweep, see `cancelStrategyOrders`) is in flight on an
   * order, as opposed to its owner's.
   * @param clientOrderId - the order
   * @returns true while a sweep's cancel of it is unanswered
   */
  keelCancelInFlight(clientOrderId: string): boolean {
    return this.pipeline.keelCancelInFlight(clientOrderId);
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

  /**
   * A strategy's open emulated trailing stops.
   * @returns PENDING and ACTIVE stops, oldest first
   */
  trailingStopsOf(runner: StrategyRunner, sym?: string): TrailingStop[] {
    return this.emulator.list(runner.id, sym);
  }

  /**
   * Every strategy's open emulated trailing stops, for a run's end-of-run checks (a stop whose
   * price never came). Not for the per-event path. None once the kernel stopped: the stop ended
   * them ({@link Kernel.trailingStopsEndedByStop}).
   * @returns PENDING and ACTIVE stops, oldest first
   */
  openTrailingStops(): TrailingStop[] {
    return this.emulator.list();
  }

  /**
   * The emulated trailing stops still open when the kernel stopped, which the stop ended
   * (CANCELLED, `runEnded`), as they were just before: for a run's end-of-run checks and the
   * warning that what they protected is unprotected.
   * @returns PENDING and ACTIVE stops, oldest first; none before the stop
   */
  trailingStopsEndedByStop(): readonly TrailingStop[] {
    return this.loop.trailingStopsEnded;
  }

  /**
   * Registers a strategy for closed bars of a (sym, interval), from the kernel's time now, or,
   * as the run starts, from where its data is whole ({@link KernelOptions.barsWholeFrom}).
   */
  watchBars(runner: StrategyRunner, sym: string, interval: BarInterval): void {
    const now = this.state.now();
    const whole = this.barsWholeFrom;
    const since = whole !== undefined && now <= this.startTs ? Math.min(now, whole) : now;
    this.marketRouting.watch(runner, sym, interval, since);
  }

  /**
   * The (sym, interval) bars each strategy watches, for a run's end-of-run checks (a watched sym
   * the data never had). Not for the per-event path.
   * @returns one entry per strategy and (sym, interval), in the order they were first watched
   */
  watchedBars(): { readonly strategyId: string; readonly sym: string; readonly interval: BarInterval }[] {
    return this.marketRouting.watched();
  }

  /**
   * The trades and finer feed bars left out of aggregated bars because they arrived after their
   * bar had closed, for a run's end-of-run warnings. Not for the per-event path.
   * @returns one entry per (sym, interval) that left any out
   */
  lateBarInputs(): LateBarInputs[] {
    return this.marketRouting.lateBarInputs();
  }

  /**
   * The orders given to no strategy though a strategy's position close may have made them (two
   * strategies' closes of the leg in flight where the venue's order cannot tell them apart, or a
   * close a position report ended before its order came), for a run's end-of-run warnings.
   * @returns one entry per leg, strategies and reason
   */
  unattributedCloseOrders(): readonly UnattributedCloseOrder[] {
    return this.state.closes.unattributed();
  }

  /**
   * The intents each strategy's hooks built with `ctx.order` and neither returned nor submitted, per
   * hook kind, for a run's end-of-run warnings. Not for the per-event path.
   * @returns one entry per strategy and hook kind that left any unsent, in strategy order
   */
  unsentIntents(): (UnsentIntents & { readonly strategyId: string })[] {
    return this.runners.flatMap((runner) =>
      runner.order.tally.unsent().map((unsent) => ({ strategyId: runner.id, ...unsent })),
    );
  }

  /**
   * The algo orders a strategy sent that the venue has not answered yet: not among the state's
   * open algo orders, though the venue may hold them (a sweep of the strategy's orders cancels
   * them by reference, their cancels reaching the venue after them).
   * @param strategyId - the strategy
   * @returns its in-flight algo orders, by reference and sym with what was sent, in sending order
   */
  algoOrdersInFlight(strategyId: string): readonly InFlightAlgoOrder[] {
    return this.algosInFlight.ownedBy(strategyId);
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
    this.reports.fault(runner, where, error, this.state.now(), how);
  }

  /**
   * Reports what a halted strategy's unawaited Promise rejected with (see {@link Kernel.rejections}).
   * @param runner - the strategy
   * @param where - what returned the Promise
   * @param reason - the rejection reason
   */
  rejected(runner: StrategyRunner, where: string, reason: unknown): void {
    this.reports.rejected(runner, where, reason);
  }

  private deny(runner: StrategyRunner, denial: IntentDenied): void {
    this.denial$.next(denial);
    this.loop.defer({ kind: 'deliverDenial', runner, denial });
  }
}
