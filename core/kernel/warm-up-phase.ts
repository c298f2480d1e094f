import type { BarInterval, MarketEvent } from '../model/index.ts';
import {
  type KernelWarmUp,
  replayHistory,
  type WarmUpCoverage,
  WarmUpScheduler,
  type WatchedBars,
  warmUpDenialReason,
  warmUpFrom,
} from './kernel-warm-up.ts';
import type { Scheduler } from './scheduler.ts';

/** What a warm-up on history needs of its kernel. */
export interface WarmUpHost {
  /** Starts the strategies (`setup`, `onStart`). */
  startStrategies(): void;
  /** Hands one history event to the kernel. */
  push(event: MarketEvent): void;
  /** Moves the kernel's time, firing the timers it passes. */
  advanceTime(ts: number): void;
  /** True once the kernel stopped. */
  stopped(): boolean;
  /** The (sym, interval) bars the strategies watch. */
  watchedBars(): readonly WatchedBars[];
  /**
   * Hands the bars over to the live feed (see `MarketRouting.goLive`).
   * @param since - the live start, epoch ms
   * @param liveIntervals - the bar intervals the live feed sends
   */
  goLive(since: number, liveIntervals: readonly BarInterval[]): void;
}

/**
 * A kernel's warm-up (see {@link KernelWarmUp}) from start to end: whether it is on, the
 * scheduler the kernel runs on (virtual time during a warm-up on history), and the replay of
 * that history.
 */
export class WarmUpPhase {
  /** The kernel's scheduler: the run's, wrapped in virtual time while warming up on history. */
  readonly scheduler: Scheduler;
  private warmUp: KernelWarmUp | undefined;
  private readonly onHistory: WarmUpScheduler | undefined;

  /**
   * @param warmUp - the warm-up, if any
   * @param run - the run's scheduler
   * @param syms - the run's instruments: only their history counts as coverage
   */
  constructor(
    warmUp: KernelWarmUp | undefined,
    run: Scheduler,
    private readonly syms: readonly string[],
  ) {
    this.warmUp = warmUp;
    this.onHistory = warmUp?.history === undefined ? undefined : new WarmUpScheduler(run);
    this.scheduler = this.onHistory ?? run;
    this.holdsTime = this.onHistory !== undefined;
  }

  /** True while warming up. */
  get active(): boolean {
    return this.warmUp !== undefined;
  }

  /** The history to replay before the market feed, if the warm-up has one and is still on. */
  get history(): AsyncIterable<readonly MarketEvent[]> | undefined {
    return this.warmUp?.history;
  }

  /** @returns why every intent is denied now, or undefined when trading */
  denialReason(): string | undefined {
    return this.warmUp === undefined ? undefined : warmUpDenialReason(this.warmUp.periodMs);
  }

  /**
   * True while warming up on history: only its events move the (virtual) time then, User Data
   * carries the run's. A field read on the per-event path.
   */
  holdsTime = false;

  /** Ends the warm-up: intents go through, and the run's clock takes over. */
  end(): void {
    this.warmUp = undefined;
    this.holdsTime = false;
    this.onHistory?.end();
  }

  /**
   * Runs a warm-up on history: the strategies start on virtual time at the warm-up's start and
   * see the history; the timers due before the run's start fire (their intents denied); then the
   * warm-up ends.
   * @param host - the kernel
   * @returns how much of the period the history covered
   * @throws what reading the history throws
   */
  async replay(host: WarmUpHost): Promise<WarmUpCoverage> {
    const warmUp = this.warmUp as KernelWarmUp;
    const scheduler = this.onHistory as WarmUpScheduler;
    // The run's own clock as the warm-up begins: the live start.
    const until = scheduler.runNow();
    const from = warmUpFrom(warmUp, until);
    scheduler.advanceTo(from);
    host.startStrategies();
    const coverage = await replayHistory(
      warmUp.history as AsyncIterable<readonly MarketEvent[]>,
      warmUp,
      { from, until, syms: this.syms, watched: () => host.watchedBars() },
      (event) => host.push(event),
      () => host.stopped(),
    );
    host.advanceTime(until - 1);
    host.goLive(until, warmUp.liveBarIntervals ?? ['1m']);
    this.end();
    return coverage;
  }
}
