import type { Logger } from 'pino';
import type { StrategyFaultRecord } from '../../backtest/report/index.ts';
import type { KillSwitchTrips } from '../../backtest/runner/index.ts';
import type { Kernel } from '../../core/kernel/index.ts';
import { type Dec, type Loan, ZERO } from '../../core/model/index.ts';
import type { LiveVenue } from '../../core/venue/index.ts';
import { EXIT } from '../cli/exit-codes.ts';
import type { AttachedLegLookups } from './attached-legs.ts';
import { afterClosesOutcome, awaitInFlightOnStop, cancelOpenOrdersOnStop } from './cancel-on-stop.ts';
import { awaitClosesOnStop } from './closes-on-stop.ts';
import type { InFlightCommands } from './in-flight-commands.ts';
import type { RunMetrics } from './run-metrics.ts';
import type { SessionEquitySampler } from './session-equity-sampler.ts';
import type { SessionGuards } from './session-guards.ts';
import { unreadLoansAtEndWarnings } from './session-loans.ts';
import type { SessionRecorder } from './session-recorder.ts';
import type { SessionRecord } from './session-result.ts';
import type { SessionStartingCoins } from './session-starting-coins.ts';
import type { SessionStatement } from './session-statement.ts';
import {
  forceStopOnSecondSignal,
  reconciledInShutdownNote,
  type SessionStopReason,
  sessionExitCode,
  unreconciledStopWarning,
} from './session-stop.ts';
import { restAlgoOrderLookup, settleOpenAlgoOrders } from './settle-algo-orders.ts';
import { StopDeadline } from './stop-deadline.ts';
import { stopLeftovers } from './stop-leftovers.ts';
import type { UserDataJournal } from './user-data-journal.ts';
import type { SessionEventCount, VenueSessionOptions, VenueSessionOutcome } from './venue-session-options.ts';
import { keptRecordingNotes, recordingOnForcedStop } from './venue-session-recording.ts';
import { writeVenueSessionReport } from './venue-session-report.ts';

/** What a session that was told to stop hands to its shutdown. */
export interface StoppingVenueSession {
  readonly options: VenueSessionOptions;
  readonly stopReason: SessionStopReason;
  /**
   * Takes what the session still handles before its kernel stops (in lockstep, the event the
   * last ack released, waited for at most `withinMs` besides its own bound), then marks it
   * stopping: market data is no longer handled nor recorded.
   */
  readonly lastEvent: (withinMs: number) => Promise<void>;
  /**
   * @returns the time the session ends at: the last it handled (in lockstep the venue may have
   *   ticked to a timer the stopped session left unhandled), or that of User Data the stop brought
   */
  readonly endTime: () => number;
  readonly live: LiveVenue;
  /** The commands the strategies sent whose outcome is not known yet. */
  readonly inFlight: InFlightCommands;
  readonly kernel: Kernel;
  readonly gate: ReturnType<RunMetrics['timingGate']>;
  readonly metrics: RunMetrics;
  readonly guards: SessionGuards;
  readonly journal: UserDataJournal;
  readonly attachedLegs: AttachedLegLookups;
  readonly statement: SessionStatement;
  /** Ends the hourly statement reads. */
  readonly stopStatementRefresh: () => void;
  /** Ends the status line. */
  readonly stopStatus: () => void;
  readonly recorder: SessionRecorder | undefined;
  readonly recordingPath: string | undefined;
  readonly equity: SessionEquitySampler;
  /** The equity when the session began trading, for a curve that never started. */
  readonly equityAtStart: Dec;
  readonly coins: SessionStartingCoins;
  readonly settleAsset: string;
  readonly faults: readonly StrategyFaultRecord[];
  /** What the session found on the venue at start that its result must say (coins no instrument values). */
  readonly startWarnings: readonly string[];
  readonly warmUpWarning: string | undefined;
  /** The kill switch's trips during the session. */
  readonly trips: KillSwitchTrips;
  /** @returns the market and User Data events the session handled so far */
  readonly eventCount: () => SessionEventCount;
  /** The result's warnings of the venue's data ahead of its clock, or of its clock's rate (see DataClockLead). */
  readonly dataClockWarnings: () => readonly string[];
  /** The result's warnings of the orders and fills the kernel gave up to no strategy (see GivenUpWarnings). */
  readonly givenUpWarnings: () => readonly string[];
  /** The positions the venue held when the session began (its trade list starts from them). */
  readonly adoptedPositions: SessionRecord['adoptedPositions'];
  /** The venue's loans when the session began, for the summary's loan line. */
  readonly loansAtStart: readonly Loan[];
}

/**
 * Shuts a stopped session down and writes its result (see {@link stopAndReport}). Meanwhile a
 * second SIGINT or SIGTERM forces the exit (unless the session handles no signals); those
 * handlers are removed however the shutdown ends, so one that throws leaves none installed.
 * @param session - the session and why it stops
 * @returns the exit code and what the session produced
 * @throws what the shutdown threw (e.g. the report could not be written)
 */
export async function shutDownVenueSession(session: StoppingVenueSession): Promise<VenueSessionOutcome> {
  const { options, kernel, recorder, recordingPath } = session;
  const { logger } = options;
  logger.info({ reason: session.stopReason }, `${options.mode} session stopping`);
  // From here the session takes no new orders: a supervisor's readiness probe says so at once.
  session.metrics.stopping(
    `the ${options.mode} session is stopping (${stopReasonWords(session.stopReason)})`,
  );
  // Looked at again when the books close: the stream may come back and reconcile meanwhile.
  const staleAtStop = kernel.connectivity.staleness();
  if (staleAtStop !== undefined)
    logger.info(`${staleAtStop} as the session stops: its result says whether it reconciled before the end`);
  const endForcing =
    options.handleSignals === false
      ? () => {}
      : forceStopOnSecondSignal((signal) =>
          recordingOnForcedStop(signal, options.mode, recorder, recordingPath, logger),
        );
  try {
    return await stopAndReport(session, staleAtStop);
  } finally {
    endForcing();
  }
}

/**
 * How long the venue's connections may take to close once the stop's deadline has passed, ms
 * (Keel's choice): a venue that answers closes them in a moment; one that does not has its
 * connections dropped then.
 */
export const CLOSE_AFTER_DEADLINE_MS = 1_000;

/**
 * Strategies stopped, open orders optionally cancelled (and what is left open warned about or
 * noted), the closes the strategies sent waited for (the stopped kernel folds their orders and
 * fills until it is detached, before the venue closes), the last equity sampled, statements and
 * algo orders read a last time, the venue and recording closed, then the result and reports
 * written. Everything waiting on the venue shares
 * one deadline, `shutdown.timeoutMs` from here (see {@link StopDeadline}); closing its connections
 * may take {@link CLOSE_AFTER_DEADLINE_MS} more.
 */
async function stopAndReport(
  session: StoppingVenueSession,
  staleAtStop: string | undefined,
): Promise<VenueSessionOutcome> {
  const { options, kernel, journal, live, metrics, recorder, recordingPath, equity, settleAsset } = session;
  const { config, logger } = options;
  const deadline = new StopDeadline(config.shutdown.timeoutMs);
  await session.lastEvent(deadline.left());
  session.stopStatus();
  kernel.stop();
  const guardWarnings = session.guards.stop();
  // Orders still on their way are waited for (their ack, or the client's lookup of a lost one)
  // before anything is cancelled or closed: the venue may book them a moment later.
  const inFlight = () => session.inFlight.pending();
  const { cancelAllOrders, keepProtectiveOrders } = config.shutdown;
  const cancelOpen = () =>
    cancelOpenOrdersOnStop(
      kernel,
      session.gate,
      live.execution,
      { openOrders: () => journal.openOrders(), inFlight, keepProtective: keepProtectiveOrders },
      deadline.left(),
    );
  const beforeCloses = cancelAllOrders
    ? await cancelOpen()
    : await awaitInFlightOnStop(inFlight, deadline.left()).then(() => undefined);
  const unanswered = { commands: inFlight(), lookedUpUntil: Date.now() };
  // A close's order and fill come after its reply (one from onStop too): the stopped kernel folds
  // them, its strategy's, before the equity, positions and fills are read.
  await awaitClosesOnStop(kernel, deadline.left());
  // A leg the closes took flat leaves the protective orders kept for it nothing to protect.
  const cancelled =
    beforeCloses !== undefined && keepProtectiveOrders
      ? afterClosesOutcome(beforeCloses, await cancelOpen())
      : beforeCloses;
  // Give replies and the last User Data a moment to arrive before the books close.
  await new Promise((r) => setTimeout(r, Math.min(200, deadline.left())));
  const endTs = session.endTime();
  equity.startAt(endTs, true);
  equity.sampler.sample(endTs);
  const endEquity = equity.equity();
  const startEquity = equity.startEquity ?? session.equityAtStart;
  session.stopStatementRefresh();
  await session.statement.refresh(endTs, deadline.signal);
  await deadline.within(
    'reading the take-profit / stop-loss legs of the orders that filled',
    session.attachedLegs.pending(),
  );
  // Keel's loans follow its own borrows and repays; what the venue repaid itself (a liquidation)
  // shows only in a read: the summary's "owed at the end" is what the venue holds. Without a loan
  // Keel knows of there is nothing such a read could correct.
  const loanRead = kernel.state.loans.size === 0 ? undefined : live.execution.readLoans();
  const loansRead =
    loanRead === undefined ||
    ((await deadline.within("reading the venue's loans", loanRead)) && (await loanRead));
  await deadline.within(
    'looking up the algo orders still open',
    journal.openAlgoRefs().length === 0
      ? undefined
      : settleOpenAlgoOrders(
          journal,
          restAlgoOrderLookup(live.rest),
          (ref, error) =>
            logger.warn({ ref, err: (error as Error).message }, 'could not look up an algo order at the end'),
          undefined,
          deadline.signal,
        ),
  );
  // What is left open is read once the legs and the algo orders' end states are in: before, a
  // leg the venue had cancelled or triggered was still open by the session's record.
  const leftovers = stopLeftovers(
    cancelled,
    {
      orders: journal.openOrders(),
      algoRefs: journal
        .openAlgoRefs()
        .map((ref) => ('clientAlgoOrderId' in ref ? ref.clientAlgoOrderId : ref.algoOrderId)),
      positions: kernel.state.positions.values(),
      trailingStops: kernel.trailingStopsEndedByStop(),
      unanswered,
    },
    config.shutdown.timeoutMs,
    logger,
  );
  const cutShort = deadline.warning();
  if (cutShort !== undefined) logger.warn(cutShort);
  const stale = staleViewAtEnd(kernel, staleAtStop, logger);
  kernel.detach();
  // The books are closed: a REST request still under way (a cancel whose reply was lost, a read
  // the deadline cut short) can change nothing in the result. Once every command's outcome is
  // known it is ended at once rather than waited for until the deadline and a second more.
  const outcomesKnown = inFlight().length === 0;
  await live.stop(deadline.left(CLOSE_AFTER_DEADLINE_MS), outcomesKnown ? 0 : undefined);
  recorder?.close();

  const { coins } = session;
  // The endpoint serves until the result is written (a last scrape sees the session's end), and
  // closes however the writing ends: an open server would keep the process from exiting.
  const { result, outputs, notWritten, resultWritten } = await writeVenueSessionReport({
    ...options,
    venueLabel: options.venue.label,
    recordingPath,
    kernel,
    journal,
    statement: session.statement,
    sampler: equity.sampler,
    faults: session.faults,
    latency: options.latency,
    stopReason: session.stopReason,
    settleAsset,
    ...(coins.values.length + coins.unpriced().length === 0
      ? {}
      : { startingCoins: { cash: config.paper?.startingCash[settleAsset] ?? ZERO, coins } }),
    shutdownWarnings: [
      ...(stale.warning === undefined ? [] : [stale.warning]),
      ...leftovers.warnings,
      ...(loansRead ? [] : unreadLoansAtEndWarnings(kernel.state.loans.values())),
      ...(cutShort === undefined ? [] : [cutShort]),
      ...guardWarnings,
      ...session.dataClockWarnings(),
      ...(recorder?.warnings() ?? []),
    ],
    adoptedPositions: session.adoptedPositions,
    ...sessionWarnings(
      [...session.startWarnings, ...(options.sourceWarnings?.() ?? [])],
      session.warmUpWarning,
      live.execution.reconciliationWarnings,
      [...session.trips.warnings(), ...session.givenUpWarnings()],
    ),
  }).finally(() => metrics.close());
  const leftOpen = (cancelled?.leftOpen.length ?? 0) + unanswered.commands.length;
  if (notWritten !== undefined) logger.error({ result: outputs.json }, notWritten);
  // Orders left on the venue say more than missing files; missing files more than how it stopped.
  const exitCode =
    notWritten !== undefined && leftOpen === 0
      ? EXIT.RUNTIME_FAILURE
      : sessionExitCode(session.stopReason, session.faults.length, leftOpen);
  // The last record: how the session ended, for an operator reading only the log, who reads it
  // at any level but silent. Its files are named only when they were written.
  endRecordLogger(logger).info(
    {
      reason: session.stopReason,
      exitCode,
      fills: result.fills.length,
      intents: metrics.intentTotal,
      startEquity: startEquity.toFixed(),
      endEquity: endEquity.toFixed(),
      pnl: endEquity.sub(startEquity).toFixed(),
      settleAsset,
      ...(notWritten === undefined
        ? { result: outputs.json, report: outputs.html }
        : { ...(resultWritten === true ? { result: outputs.json } : {}), outputsNotWritten: notWritten }),
    },
    `${options.mode} session ended`,
  );
  return {
    exitCode,
    fills: result.fills,
    intents: metrics.intentTotal,
    events: session.eventCount(),
    startEquity,
    endEquity,
    recording: recordingPath,
    outputs,
    ...(notWritten === undefined
      ? {}
      : { outputsNotWritten: notWritten, resultWritten: resultWritten === true }),
    result,
    notes: [
      ...(stale.note === undefined ? [] : [stale.note]),
      ...leftovers.notes,
      ...keptRecordingNotes(recorder, recordingPath),
    ],
    loans: { atStart: session.loansAtStart, atEnd: [...kernel.state.loans.values()] },
  };
}

/**
 * Whether the kernel's view of the venue is still stale as the books close (the last moment its
 * stopped kernel folds User Data): the warning that orders, fills and balances may be missing
 * (logged as an error), or, when it was stale as the stop began but the private stream came back
 * and reconciled during the shutdown, a note saying so (logged at info).
 * @param kernel - the stopped kernel, not detached yet
 * @param staleAtStop - its staleness when the stop began
 * @param logger - where to log either
 * @returns the result's warning or the summary's note, if any
 */
function staleViewAtEnd(
  kernel: Kernel,
  staleAtStop: string | undefined,
  logger: Logger,
): { warning?: string; note?: string } {
  const warning = unreconciledStopWarning(kernel.connectivity.staleness());
  if (warning !== undefined) {
    logger.error(warning);
    return { warning };
  }
  const note = reconciledInShutdownNote(staleAtStop);
  if (note !== undefined) logger.info(note);
  return note === undefined ? {} : { note };
}

/**
 * Where the session's last record goes: the session's logger, or at a level above info (`warn`,
 * `error`) a child of it that writes info, so the one record saying how the session ended is
 * never filtered out; nothing when logging is silent.
 */
function endRecordLogger(logger: Logger): Logger {
  return logger.isLevelEnabled('info') || logger.level === 'silent'
    ? logger
    : logger.child({}, { level: 'info' });
}

/**
 * The result's warnings besides the shutdown's: what the session found at start, what the market
 * source skipped or where it failed, a warm-up the history did not cover, what the reconciliations
 * found (orders the venue forgot, order states reported without their fills), the kill switch's
 * trips and what the kernel gave up to no strategy.
 */
function sessionWarnings(
  startAndSource: readonly string[],
  warmUpWarning: string | undefined,
  reconciliations: readonly string[],
  tripsAndGivenUp: readonly string[],
): { warnings?: readonly string[] } {
  const warnings = [
    ...startAndSource,
    ...(warmUpWarning === undefined ? [] : [warmUpWarning]),
    ...reconciliations,
    ...tripsAndGivenUp,
  ];
  return warnings.length === 0 ? {} : { warnings };
}

/** Why a session stops, as its `/readyz` says it: the signal's name, or what ended it. */
function stopReasonWords(reason: SessionStopReason): string {
  if (reason === 'duration') return 'its duration is over';
  if (reason === 'ended') return 'its market data ended';
  if (reason === 'feed') return 'its feed ended';
  return reason;
}
