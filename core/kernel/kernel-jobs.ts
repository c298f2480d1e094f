import type { KeelEvent, UserEvent, VenueStatus } from '../model/index.ts';
import type { EquityObservations } from './equity-observations.ts';
import type { KernelTimers } from './kernel-timers.ts';
import { isMarketEvent, type MarketRouting } from './market-routing.ts';
import type { IntentDenied } from './strategy-events.ts';
import type { StrategyRunner } from './strategy-runner.ts';
import type { ScheduledTimer } from './timer-queue.ts';
import type { TrailingStop } from './trailing-stop.ts';
import type { TrailingStopEmulator } from './trailing-stop-emulator.ts';
import type { UserDataRouting } from './user-data-routing.ts';
import type { VenueConnectivity } from './venue-connectivity.ts';
import type { WarmUpPhase } from './warm-up-phase.ts';

/**
 * Work that arrived while the kernel was busy: an event, a denial to deliver, a timer wake-up, or
 * a connection change of the venue.
 */
export type KernelJob =
  | KeelEvent
  | { readonly kind: 'deliverDenial'; readonly runner: StrategyRunner; readonly denial: IntentDenied }
  | { readonly kind: 'deliverTrailingStop'; readonly runner: StrategyRunner; readonly stop: TrailingStop }
  | { readonly kind: 'wake' }
  | { readonly kind: 'venueStatus'; readonly status: VenueStatus };

/** The job the scheduler's wake-up enqueues: fire the wall-time timers due now. */
export const WAKE: KernelJob = { kind: 'wake' };

/** The parts of a kernel its jobs reach. */
export interface KernelJobParts {
  readonly runners: readonly StrategyRunner[];
  readonly timers: KernelTimers;
  /** The venue's stream states, updated by each connection change. */
  readonly connectivity: VenueConnectivity;
  readonly marketRouting: MarketRouting;
  readonly userRouting: UserDataRouting;
  /** Shows equity to the gate's kill switch as market data moves prices (throttled). */
  readonly equity: EquityObservations;
  /** Whether the warm-up holds the time (only its events move it then). */
  readonly warmUp: WarmUpPhase;
  /** The emulated trailing stops, told when a turn begins that is no reaction to a bar delivered before. */
  readonly emulator: TrailingStopEmulator<StrategyRunner>;
  /** Told of each User Data event the stopped kernel folded, once folded (see `Kernel.foldedAfterStop`). */
  readonly foldedAfterStop: (event: UserEvent) => void;
}

/** Where the kernel is in its life, and how it fires a timer. */
export interface KernelJobPhase {
  /** True once the strategies started: User Data is delivered to them, not only folded. */
  readonly strategiesStarted: boolean;
  /** True once the kernel stopped. */
  readonly stopped: boolean;
  /** Delivers one timer to its strategy; returns false when the strategy is gone (no repeat). */
  readonly fireTimer: (timer: ScheduledTimer) => boolean;
}

/**
 * Handles one job of the kernel's work queue. An event fires the timers it passes (virtual time),
 * is folded into the state and delivered to the strategies; a market event after the warm-up may
 * then show equity to the kill switch (see {@link EquityObservations}); after stop,
 * User Data is only folded and market data dropped (see the Kernel's TSDoc). The per-event hot
 * path: no allocation, no Decimal work but that of the kill switch's throttled observation.
 * @param job - the job
 * @param parts - the kernel's parts
 * @param phase - where the kernel is in its life
 */
export function handleJob(job: KernelJob, parts: KernelJobParts, phase: KernelJobPhase): void {
  // A denial or a stop's status follows from the work before it; anything else starts a new turn.
  if (job.kind !== 'deliverDenial' && job.kind !== 'deliverTrailingStop') parts.emulator.beginTurn();
  switch (job.kind) {
    case 'deliverDenial':
      job.runner.deliverDenial(job.denial);
      return;
    case 'deliverTrailingStop':
      job.runner.deliverTrailingStop(job.stop);
      return;
    case 'wake':
      if (!phase.stopped) parts.timers.fireDueNow(phase.fireTimer);
      return;
    case 'venueStatus': {
      // Before the strategies start (a live session's first login) it is only noted.
      const changed = parts.connectivity.observe(job.status);
      if (changed && job.status.stream === 'private' && job.status.state === 'reconciled')
        parts.userRouting.reconciled();
      if (changed && phase.strategiesStarted && !phase.stopped)
        for (const runner of parts.runners) runner.deliverVenueStatus(job.status);
      return;
    }
  }
  if (phase.stopped) {
    if (!isMarketEvent(job)) {
      parts.userRouting.settle(job);
      parts.foldedAfterStop(job);
    }
    return;
  }
  if (!parts.warmUp.holdsTime || isMarketEvent(job)) {
    parts.timers.passTo(job.ts, phase.fireTimer);
    parts.marketRouting.closeDueAt(job);
  }
  if (parts.marketRouting.route(job)) {
    // A warm-up's prices are not the trading run's (live: history on virtual time): not judged.
    if (!parts.warmUp.active) parts.equity.marketMoved();
    return;
  }
  parts.emulator.onUserEvent(job.ts);
  if (phase.strategiesStarted) parts.userRouting.route(job);
  else parts.userRouting.fold(job);
}
