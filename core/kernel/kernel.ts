import type { Observable } from 'rxjs';
import { Subject } from 'rxjs';
import type { BarInterval, Intent, KeelEvent, MarketEvent, VenueStatus } from '../model/index.ts';
import type { IntentPipeline } from './intent-pipeline.ts';
import { KernelFeeds } from './kernel-feeds.ts';
import type { KernelOptions } from './kernel-options.ts';
import { kernelPaths } from './kernel-paths.ts';
import { KernelState } from './kernel-state.ts';
import { KernelTimers } from './kernel-timers.ts';
import type { KernelWarmUp, WarmUpCoverage } from './kernel-warm-up.ts';
import { isMarketEvent, MarketRouting } from './market-routing.ts';
import type { IntentDenied } from './strategy-events.ts';
import type { StrategyFault, StrategyRejection } from './strategy-faults.ts';
import { StrategyFaultReports } from './strategy-faults.ts';
import type { StrategyRunner } from './strategy-runner.ts';
import { createRunners } from './strategy-slots.ts';
import type { ScheduledTimer } from './timer-queue.ts';
import type { TrailingStop } from './trailing-stop.ts';
import type { TrailingStopEmulator } from './trailing-stop-emulator.ts';
import type { UserDataRouting } from './user-data-routing.ts';
import { VenueConnectivity } from './venue-connectivity.ts';
import { WarmUpPhase } from './warm-up-phase.ts';
import { WorkQueue } from './work-queue.ts';

/**
 * Work that arrived while the kernel was busy: an event, a denial to deliver, a timer wake-up, or
 * a connection change of the venue.
 */
type Job =
  | KeelEvent
  | { readonly kind: 'deliverDenial'; readonly runner: StrategyRunner; readonly denial: IntentDenied }
  | { readonly kind: 'deliverTrailingStop'; readonly runner: StrategyRunner; readonly stop: TrailingStop }
  | { readonly kind: 'wake' }
  | { readonly kind: 'venueStatus'; readonly status: VenueStatus };

const WAKE: Job = { kind: 'wake' };

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
 * that still arrives (a look-up answered late, the venue's answer to an `onStop` intent) is folded
 * into the state, so the run's final orders, fills and positions are the venue's, and a refused
 * modify or cancel puts its orders back to the venue's last word; but it is delivered to no
 * strategy, reported as no denial, and looks nothing up. Market data pushed after stop is dropped.
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
  /** Strategies that threw and were halted. */
  readonly faults: Observable<StrategyFault>;
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
  private readonly runners: StrategyRunner[];
  private readonly timers: KernelTimers;
  private readonly marketRouting: MarketRouting;
  private readonly userRouting: UserDataRouting;
  private readonly pipeline: IntentPipeline;
  private readonly emulator: TrailingStopEmulator<StrategyRunner>;
  private readonly trailingStop$ = new Subject<TrailingStop>();
  private started = false;
  /** False until the strategies start: User Data is then folded, not delivered. */
  private strategiesStarted = false;
  private stopped = false;
  private readonly work = new WorkQueue<Job>((job) => this.handle(job));
  private readonly denial$ = new Subject<IntentDenied>();
  private readonly reports = new StrategyFaultReports();
  private readonly feeds: KernelFeeds;
  /** The warm-up, if any (see {@link KernelWarmUp}). */
  private readonly warmUp: WarmUpPhase;
  private tradingNow: (coverage: WarmUpCoverage | undefined) => void = () => {};
  private readonly trading = new Promise<WarmUpCoverage | undefined>((done) => {
    this.tradingNow = done;
  });
  private readonly wake = (): void => this.work.enqueue(WAKE);
  private readonly fireTimer = (timer: ScheduledTimer): boolean => {
    const runner = this.runners[timer.owner] as StrategyRunner;
    runner.deliverTimer({ kind: 'timer', id: timer.id, tag: timer.tag, ts: timer.at });
    this.work.drainPending();
    return runner.live;
  };

  /**
   * @param options - instruments, sources, execution port, risk gate, scheduler and strategies
   * @throws TypeError when a strategy id or the run id is malformed or repeated, when a
   *   strategy's parameters do not match its schema (the message names the strategy and field),
   *   or when a strategy's `syms` names a sym that is not one of the run's instruments
   */
  constructor(options: KernelOptions) {
    this.warmUp = new WarmUpPhase(options.warmUp, options.scheduler);
    const scheduler = this.warmUp.scheduler;
    this.timers = new KernelTimers(scheduler, this.wake);
    this.state = new KernelState(scheduler.clock, options.instruments, options.portfolio);
    this.feeds = new KernelFeeds(
      options,
      (event) => this.push(event),
      (status) => this.work.enqueue({ kind: 'venueStatus', status }),
    );
    this.denials = this.denial$.asObservable();
    this.faults = this.reports.faults;
    this.rejections = this.reports.rejections;
    this.trailingStops = this.trailingStop$.asObservable();
    this.runners = createRunners(options.strategies, options.runId ?? '', this);
    // A live or paper run (tagged) takes back its strategies' orders left by earlier runs.
    if ((options.runId ?? '') !== '')
      this.state.orders.adoptGeneratedRefsOf(new Set(this.runners.map((r) => r.id)));
    const paths = kernelPaths(options, {
      state: this.state,
      runners: this.runners,
      deny: (runner, denial) => this.deny(runner, denial),
      push: (event) => this.push(event),
      trailingStopChanged: (runner, stop) => {
        this.trailingStop$.next(stop);
        this.work.defer({ kind: 'deliverTrailingStop', runner, stop });
      },
      connectivity: this.connectivity,
      warmingUp: () => this.warmUp.denialReason(),
    });
    this.emulator = paths.emulator;
    const syms = options.instruments.map((spec) => spec.sym);
    this.marketRouting = new MarketRouting(this.state, options.strategies, this.runners, syms, this.emulator);
    this.userRouting = paths.userRouting;
    this.pipeline = paths.pipeline;
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
    if (this.started || this.stopped) {
      const was = this.stopped ? 'stopped' : 'started';
      return Promise.reject(
        new Error(`kernel: start() was called on a ${was} kernel; build a new Kernel per run`),
      );
    }
    this.started = true;
    return new Promise<void>((resolve, reject) => {
      const subscribeUser = () => this.feeds.subscribeUser(reject);
      const startStrategies = (): void => {
        this.work.run(() => {
          // User Data first: a venue that answers inside submit (a synchronous sim) answers the
          // intents of onStart before start returns. Its events wait in the backlog until every
          // strategy has started.
          this.strategiesStarted = true;
          if (strategiesAfter === undefined) subscribeUser();
          for (const runner of this.runners) runner.start();
        });
      };
      const subscribeMarket = (): void => {
        // A strategy may have stopped the kernel from its onStart.
        if (this.stopped) return;
        this.feeds.subscribeMarket(resolve, reject);
      };
      const history = this.warmUp.history;
      const begin = (): void => {
        if (history === undefined) {
          startStrategies();
          subscribeMarket();
          this.tradingNow(undefined);
          return;
        }
        const host = {
          startStrategies,
          push: (event: MarketEvent) => this.push(event),
          advanceTime: (ts: number) => this.advanceTime(ts),
          stopped: () => this.stopped,
        };
        this.warmUp.replay(host).then((coverage) => {
          this.timers.rearm();
          subscribeMarket();
          this.tradingNow(coverage);
        }, reject);
      };
      if (strategiesAfter === undefined) {
        begin();
        return;
      }
      this.work.run(subscribeUser);
      strategiesAfter.then(() => {
        if (!this.stopped) begin();
      }, reject);
    });
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
    return this.trading;
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
   * Calls every started strategy's `onStop` (intents returned there are still sent), then
   * unsubscribes. What arrives afterwards is only folded (see {@link Kernel}).
   */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.work.run(() => {
      if (this.strategiesStarted) for (const runner of this.runners) runner.stop();
    });
    this.feeds.close();
    this.timers.disarm();
  }

  /**
   * Handles one event: fires timers it passes (virtual time), folds it into the state and
   * delivers it to the strategies. The per-event hot path: no allocation, no Decimal work. After
   * stop, User Data is only folded and market data dropped (see {@link Kernel}).
   * @param event - a market or User Data event
   */
  push(event: KeelEvent): void {
    this.work.enqueue(event);
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
   * Moves virtual time to `ts`, firing the timers it passes (e.g. at the end of a backtest).
   * @param ts - epoch ms
   */
  advanceTime(ts: number): void {
    if (this.stopped) return;
    this.work.run(() => {
      this.timers.passTo(ts, this.fireTimer);
      this.marketRouting.closeDue(ts);
    });
  }

  private handle(job: Job): void {
    switch (job.kind) {
      case 'deliverDenial':
        job.runner.deliverDenial(job.denial);
        return;
      case 'deliverTrailingStop':
        job.runner.deliverTrailingStop(job.stop);
        return;
      case 'wake':
        if (!this.stopped) this.timers.fireDueNow(this.fireTimer);
        return;
      case 'venueStatus':
        // Before the strategies start (a live session's first login) it is only noted.
        if (this.connectivity.observe(job.status) && this.strategiesStarted && !this.stopped)
          for (const runner of this.runners) runner.deliverVenueStatus(job.status);
        return;
    }
    if (this.stopped) {
      if (!isMarketEvent(job)) this.userRouting.settle(job);
      return;
    }
    if (!this.warmUp.holdsTime || isMarketEvent(job)) {
      this.timers.passTo(job.ts, this.fireTimer);
      this.marketRouting.closeDueAt(job);
    }
    if (this.marketRouting.route(job)) return;
    if (this.strategiesStarted) this.userRouting.route(job);
    else this.userRouting.fold(job);
  }

  // RunnerHost: what strategies call.

  /**
   * Passes one intent of a strategy through the kernel's checks and the risk gate to execution.
   * @param runner - the emitting strategy
   * @param intent - the intent
   */
  submit(runner: StrategyRunner, intent: Intent): void {
    if (!this.work.busy) {
      this.work.run(() => this.submit(runner, intent));
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

  /**
   * A strategy's open emulated trailing stops.
   * @returns PENDING and ACTIVE stops, oldest first
   */
  trailingStopsOf(runner: StrategyRunner, sym?: string): TrailingStop[] {
    return this.emulator.list(runner.id, sym);
  }

  /**
   * Every strategy's open emulated trailing stops, for a run's end-of-run checks (a stop whose
   * price never came). Not for the per-event path.
   * @returns PENDING and ACTIVE stops, oldest first
   */
  openTrailingStops(): TrailingStop[] {
    return this.emulator.list();
  }

  /** Registers a strategy for closed bars of a (sym, interval). */
  watchBars(runner: StrategyRunner, sym: string, interval: BarInterval): void {
    this.marketRouting.watch(runner, sym, interval);
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
    this.work.defer({ kind: 'deliverDenial', runner, denial });
  }
}
