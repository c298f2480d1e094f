import type { BarInterval, MarketEvent } from '../model/index.ts';
import type { KernelFeeds } from './kernel-feeds.ts';
import { handleJob, type KernelJob, type KernelJobParts, WAKE } from './kernel-jobs.ts';
import { KERNEL_TIMER_OWNER } from './kernel-timers.ts';
import type { WarmUpCoverage } from './kernel-warm-up.ts';
import type { StrategyRunner } from './strategy-runner.ts';
import type { ScheduledTimer } from './timer-queue.ts';
import type { TrailingStop } from './trailing-stop.ts';
import { WorkQueue } from './work-queue.ts';

/** The parts of a kernel its loop drives: what its jobs reach, and its two inputs. */
export interface KernelLoopParts extends KernelJobParts {
  readonly feeds: KernelFeeds;
  /** One of the kernel's own timers ({@link KERNEL_TIMER_OWNER}) is due: its time, epoch ms. */
  readonly kernelTimerDue: (at: number) => void;
}

/**
 * A kernel's single-threaded loop from start to stop: its strictly sequential work (an event, a
 * denial, a timer or a connection change that arrives while another is handled waits and is
 * handled right after, see {@link WorkQueue}); the order in which it subscribes to User Data,
 * starts the strategies (after a warm-up on history, if any) and subscribes to market data; and
 * its stop, after which no hook runs, no timer fires and it cannot be started again.
 */
export class KernelLoop {
  private started = false;
  private strategiesOn = false;
  private over = false;
  /** The emulated trailing stops the stop ended, as they were just before. */
  private stopsEnded: readonly TrailingStop[] = [];
  private readonly work = new WorkQueue<KernelJob>((job) => handleJob(job, this.parts, this));
  private tradingNow: (coverage: WarmUpCoverage | undefined) => void = () => {};
  /**
   * Resolves once a warm-up on history is over and the market feed is subscribed (at once without
   * one), with how much of the period the history covered.
   */
  readonly trading = new Promise<WarmUpCoverage | undefined>((done) => {
    this.tradingNow = done;
  });
  /** What the scheduler calls when a wall-time timer is due. */
  readonly wake = (): void => this.work.enqueue(WAKE);
  /**
   * Delivers one timer to its strategy, then answers what it sent before the next timer.
   * @returns false when the strategy is gone (the timer does not repeat)
   */
  readonly fireTimer = (timer: ScheduledTimer): boolean => {
    if (timer.owner === KERNEL_TIMER_OWNER) {
      this.parts.kernelTimerDue(timer.at);
      this.work.drainPending();
      return false;
    }
    const runner = this.parts.runners[timer.owner] as StrategyRunner;
    this.work.beginTurn();
    this.parts.emulator.beginTurn();
    runner.deliverTimer({ kind: 'timer', id: timer.id, tag: timer.tag, ts: timer.at, missed: timer.missed });
    this.work.drainPending();
    return runner.live;
  };

  /** Fires the timers due by `ts` and closes the bars due by then (the end of a warm-up). */
  private readonly passTime = (ts: number): void => {
    this.parts.timers.passTo(ts, this.fireTimer);
    this.parts.marketRouting.closeDue(ts);
  };

  /** Fires the timers due by `ts`: a backtest moves time so before every delivery, a lockstep session on each tick. */
  private readonly passTimers = (ts: number): void => {
    this.parts.timers.passTo(ts, this.fireTimer);
  };

  /** @param parts - the kernel's parts */
  constructor(private readonly parts: KernelLoopParts) {}

  /** False until the strategies start: User Data is then folded, not delivered. */
  get strategiesStarted(): boolean {
    return this.strategiesOn;
  }

  /** True while {@link KernelLoop.start} would start the loop: it was neither started nor stopped. */
  get startable(): boolean {
    return !this.started && !this.over;
  }

  /** True once the kernel stopped. */
  get stopped(): boolean {
    return this.over;
  }

  /** @returns true while a job or a piece of work is being handled */
  get busy(): boolean {
    return this.work.busy;
  }

  /** @returns the number of the job being handled, a timer fired counting as one (see {@link WorkQueue.turn}) */
  get turn(): number {
    return this.work.turn;
  }

  /**
   * Handles a job now, or after the current work when busy.
   * @param job - an event, or a connection change of the venue
   */
  enqueue(job: KernelJob): void {
    this.work.enqueue(job);
  }

  /**
   * Runs a piece of work as a job (then the backlog it left), or inline when already busy.
   * @param work - the work
   */
  run(work: () => void): void {
    this.work.run(work);
  }

  /**
   * Puts a job at the end of the backlog, to be handled once the current work is done.
   * @param job - a denial or a trailing stop change to deliver to its strategy
   */
  defer(job: KernelJob): void {
    this.work.defer(job);
  }

  /**
   * Starts the strategies and subscribes to the feeds, as the Kernel's `start` describes.
   * @param strategiesAfter - when given, the strategies start only once this settles
   * @returns a promise that resolves when the market feed completes and rejects if a source
   *   errors, if `strategiesAfter` rejects, or when the kernel was already started or stopped
   */
  start(strategiesAfter?: Promise<unknown>): Promise<void> {
    if (!this.startable) {
      const was = this.over ? 'stopped' : 'started';
      return Promise.reject(
        new Error(`kernel: start() was called on a ${was} kernel; build a new Kernel per run`),
      );
    }
    this.started = true;
    const { feeds, runners, warmUp, timers } = this.parts;
    return new Promise<void>((resolve, reject) => {
      const subscribeUser = () => feeds.subscribeUser(reject);
      const startStrategies = (): void => {
        this.work.run(() => {
          // User Data first: a venue that answers inside submit (a synchronous sim) answers the
          // intents of onStart before start returns. Its events wait in the backlog until every
          // strategy has started.
          this.strategiesOn = true;
          if (strategiesAfter === undefined) subscribeUser();
          for (const runner of runners) runner.start();
        });
      };
      const subscribeMarket = (): void => {
        // A strategy may have stopped the kernel from its onStart.
        if (this.over) return;
        feeds.subscribeMarket(resolve, reject);
      };
      const history = warmUp.history;
      const begin = (): void => {
        if (history === undefined) {
          startStrategies();
          subscribeMarket();
          this.tradingNow(undefined);
          return;
        }
        const host = {
          startStrategies,
          push: (event: MarketEvent) => this.work.enqueue(event),
          advanceTime: (ts: number) => this.advanceTime(ts),
          stopped: () => this.over,
          watchedBars: () => this.parts.marketRouting.watched(),
          goLive: (since: number, liveIntervals: readonly BarInterval[]) =>
            this.parts.marketRouting.goLive(since, liveIntervals),
        };
        warmUp.replay(host).then((coverage) => {
          timers.rearm();
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
        if (!this.over) begin();
      }, reject);
    });
  }

  /**
   * Calls every started strategy's `onStop` (intents returned there are still sent), then ends
   * the emulated trailing stops still open (CANCELLED, `runEnded`: nothing trails them once the
   * loop stops), unsubscribes from market data and drops the timers; User Data is still folded
   * until {@link detach}. Nothing when already stopped.
   */
  stop(): void {
    if (this.over) return;
    this.over = true;
    this.work.run(() => {
      if (this.strategiesOn) for (const runner of this.parts.runners) runner.stop();
    });
    // After onStop's own work, so a stop it cancelled reads `cancel`, not `runEnded`.
    this.work.run(() => {
      this.stopsEnded = this.parts.emulator.endAll();
    });
    this.parts.feeds.closeMarket();
    this.parts.timers.disarm();
  }

  /** @returns the emulated trailing stops {@link stop} ended, as they were just before (none before it) */
  get trailingStopsEnded(): readonly TrailingStop[] {
    return this.stopsEnded;
  }

  /** Stops (if not stopped yet), then unsubscribes from User Data too, for good. */
  detach(): void {
    this.stop();
    this.parts.feeds.close();
  }

  /**
   * Moves virtual time to `ts`, firing the timers it passes and closing the bars due by then.
   * Nothing once stopped.
   * @param ts - epoch ms
   */
  advanceTime(ts: number): void {
    if (this.over) return;
    this.work.runWith(this.passTime, ts);
  }

  /**
   * Moves virtual time to `ts`, firing the timers it passes; aggregated bars are left to close on
   * the venue stamps of the events, as live. Nothing once stopped.
   * @param ts - epoch ms
   */
  advanceTimers(ts: number): void {
    if (this.over) return;
    this.work.runWith(this.passTimers, ts);
  }
}
