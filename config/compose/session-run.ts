import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { acquireRunLock, type RunLock, tookOverWarning } from '../../backtest/report/index.ts';
import type { StrategySlot } from '../../core/kernel/index.ts';
import type { Execution } from '../../core/model/index.ts';
import { formatConfigProblem, type LoadedConfig } from '../loader/index.ts';
import { brokerClientIdOf, venueUrlLabel } from '../schema/index.ts';
import { configRecordingProblems } from './config-recording-problems.ts';
import { instrumentSpecsOf } from './instrument-specs.ts';
import { liveSessionScheduler } from './live-session-clock.ts';
import { liveVenueStart } from './live-venue-start.ts';
import { loggedRecordingDamage } from './logged-recording-damage.ts';
import { outputCollision, runInputFiles, runOutputFiles } from './output-collisions.ts';
import { outputPathProblems } from './output-path-check.ts';
import { paperScheduler, startEmbeddedPaperVenue } from './paper-run.ts';
import { runLogger } from './run-logger.ts';
import { type RunMetrics, servedRunMetrics } from './run-metrics.ts';
import { reportPathsOf } from './run-outputs.ts';
import { latencyOf } from './sim-models.ts';
import { startUpFailure } from './start-up-failure.ts';
import type { StatusSink } from './status-line.ts';
import { strategySlots } from './strategy-plugins.ts';
import { runVenueSession } from './venue-session.ts';
import type { VenueSessionOutcome } from './venue-session-options.ts';
import { warmUpOf } from './warm-up-history.ts';

/** Options of a live or paper run beyond its config. */
export interface SessionRunOptions {
  /** Stop after this many seconds; overrides `paper.durationSec`. */
  readonly durationSec?: number;
  readonly status?: StatusSink;
  readonly onFill?: (fill: Execution) => void;
  readonly handleSignals?: boolean;
  /** Called once the venue is up (paper: the embedded venue's URL). */
  readonly onVenue?: (restUrl: string, synthetic: boolean) => void;
  /** Told the `/metrics` URL once it is served (with `metrics.enabled`). */
  readonly onMetrics?: (url: string) => void;
}

/** A session's outcome, or the located config problems that stopped it before it began. */
export type SessionRunResult =
  | ({ readonly ok: true } & VenueSessionOutcome)
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Runs a config of mode live or paper. Live: the venue at the configured URLs with the
 * configured key and secret. Paper: the embedded paper venue started in-process, reached through
 * the same live venue adapter as live mode, then closed.
 * @param loaded - a validated config of mode live or paper
 * @param options - duration, status sink, fill callback, signal handling
 * @returns the outcome, or the problems, one `✖` line each (strategy params, unloadable plugin, an
 *   output that is an input or another output or cannot be written, another run holding the lock
 *   of one of its outputs: see `acquireRunLock`)
 * @throws Error when the venue cannot be reached or the run fails
 */
export async function runConfiguredSession(
  loaded: LoadedConfig,
  options: SessionRunOptions = {},
): Promise<SessionRunResult> {
  const { config } = loaded;
  const slots = await strategySlots(loaded);
  if (!slots.ok) {
    return { ok: false, problems: slots.problems.map(formatConfigProblem) };
  }
  const missing = await configRecordingProblems(loaded);
  if (missing.length > 0) return { ok: false, problems: missing.map(formatConfigProblem) };
  const collision = outputCollision(runOutputFiles(loaded), runInputFiles(loaded));
  if (collision !== undefined) return { ok: false, problems: [`✖ ${collision}`] };
  const unwritable = outputPathProblems(loaded);
  if (unwritable.length > 0) return { ok: false, problems: unwritable.map(formatConfigProblem) };
  const { json, html } = reportPathsOf(config);
  const outputs = [json, html];
  if (config.recording !== undefined) outputs.push(resolve(config.recording.path));
  const locked = acquireRunLock(outputs, Date.now());
  if (!locked.ok) return { ok: false, problems: [`✖ ${locked.problem}`] };
  try {
    return { ok: true, ...(await runLockedSession(loaded, slots.slots, locked.lock, options)) };
  } finally {
    locked.lock.release();
  }
}

/** A checked config's session, run while its lock is held. */
async function runLockedSession(
  loaded: LoadedConfig,
  slots: readonly StrategySlot[],
  lock: RunLock,
  options: SessionRunOptions,
): Promise<VenueSessionOutcome> {
  const { config } = loaded;
  const logger = runLogger(config.name ?? config.mode, config.logging.level);
  // Served before the steps that may take a while (the warm-up history's read, the paper venue's
  // start, the live venue's first replies): `/healthz` answers through them, and `/readyz` says
  // the session is not ready, and which step failed while the endpoint closes.
  const metrics = await servedRunMetrics(config.metrics, logger, options.onMetrics);
  const starting: StartUpStep = { what: 'cannot start', handedOver: false };
  try {
    return await runServedSession(loaded, slots, lock, options, { logger, metrics, starting });
  } catch (error) {
    if (!starting.handedOver) {
      metrics.stopping(startUpFailure(`the ${config.mode} session`, starting.what, error));
      await metrics.close();
    }
    throw error;
  }
}

/** The step a run's start-up is at, until the session took its metrics over. */
interface StartUpStep {
  what: string;
  /** Set once the session owns the metrics: it closes them however it ends. */
  handedOver: boolean;
}

/** What {@link runLockedSession} hands to {@link runServedSession}. */
interface ServedRun {
  readonly logger: Logger;
  readonly metrics: RunMetrics;
  readonly starting: StartUpStep;
}

/** {@link runLockedSession} once its metrics are served. */
async function runServedSession(
  loaded: LoadedConfig,
  slots: readonly StrategySlot[],
  lock: RunLock,
  options: SessionRunOptions,
  { logger, metrics, starting }: ServedRun,
): Promise<VenueSessionOutcome> {
  const { config } = loaded;
  // Paper runs trade Keel's SYNTHETIC specs (the paper venue serves them); live runs ask the venue.
  const instruments = config.mode === 'paper' ? instrumentSpecsOf(config.instruments) : [];
  const durationSec = options.durationSec ?? config.paper?.durationSec;
  // Read before any venue starts: a missing history file stops the run with its config key.
  const history = loggedRecordingDamage(logger);
  starting.what = 'cannot read its warm-up history';
  const warmUp = await warmUpOf(loaded, history, (message) => logger.warn(message));
  for (const stale of lock.tookOver)
    logger.warn({ lock: stale.path, holderPid: stale.pid }, tookOverWarning(stale));
  /** Hands the metrics to the session, which closes them however it ends. */
  const handOver = (): RunMetrics => {
    starting.handedOver = true;
    return metrics;
  };
  const common = {
    config,
    slots,
    instruments,
    logger,
    ...(durationSec === undefined ? {} : { durationMs: durationSec * 1000 }),
    ...(options.status === undefined ? {} : { status: options.status }),
    ...(options.onFill === undefined ? {} : { onFill: options.onFill }),
    ...(options.onMetrics === undefined ? {} : { onMetrics: options.onMetrics }),
    ...(options.handleSignals === undefined ? {} : { handleSignals: options.handleSignals }),
    ...(warmUp === undefined ? {} : { warmUp }),
  };
  if (config.mode === 'paper') {
    const paper = config.paper;
    if (paper?.latency?.marketData !== undefined)
      logger.warn(
        'paper.latency.marketData delays no market-data push in paper runs (it is the User Data leg when paper.latency.userData is absent, as in a backtest)',
      );
    starting.what = 'cannot start its paper venue';
    const embedded = await startEmbeddedPaperVenue(loaded, instruments, Date.now(), logger);
    const { venue } = embedded;
    options.onVenue?.(venue.restUrl, embedded.synthetic);
    try {
      return await runVenueSession({
        ...common,
        metrics: handOver(),
        mode: 'paper',
        venue: {
          restUrl: venue.restUrl,
          privateWsUrl: venue.privateWsUrl,
          marketDataWsUrl: venue.marketDataWsUrl,
          apiKey: venue.apiKey,
          apiSecret: venue.apiSecret,
          brokerClientId: brokerClientIdOf(config),
          label: `Keel paper venue ${venue.restUrl}${embedded.synthetic ? ' (SYNTHETIC feed)' : ''}`,
        },
        synthetic: embedded.synthetic,
        sessionClock: () => venue.now(),
        // The strategies' clock and timers follow the replay, as in a backtest of the same data.
        scheduler: paperScheduler(paper, embedded, venue),
        ...(embedded.defaultedFillModel === undefined
          ? {}
          : { defaultedFillModel: embedded.defaultedFillModel }),
        lockstep: paper?.lockstep ?? false,
        ...(paper === undefined ? {} : { lockstepSpeed: paper.speed }),
        placeLimitOnVenueTime: paper !== undefined && (paper.lockstep || paper.speed !== 1),
        ended: embedded.ended,
        sourceWarnings: () => [...embedded.sourceWarnings(), ...history.warnings()],
        fillModel: embedded.fillModel,
        ...(paper?.latency === undefined
          ? {}
          : { latency: { legs: latencyOf(paper.latency), seed: paper.latency.seed } }),
      });
    } finally {
      await venue.close();
    }
  }
  const venue = config.venue;
  starting.what = 'its config names no venue';
  if (venue === undefined) throw new Error(`${loaded.file} has no venue section`);
  starting.what = `cannot read its instruments from the venue at ${venueUrlLabel(venue.restUrl)}`;
  const {
    instruments: liveInstruments,
    synthetic,
    serverClock,
    clock: sessionClock,
  } = await liveVenueStart(venue, config.instruments, logger);
  options.onVenue?.(venueUrlLabel(venue.restUrl), synthetic);
  return runVenueSession({
    ...common,
    metrics: handOver(),
    instruments: liveInstruments,
    mode: 'live',
    venue: {
      restUrl: venue.restUrl,
      privateWsUrl: venue.privateWsUrl,
      marketDataWsUrl: venue.marketDataWsUrl,
      apiKey: venue.apiKey.reveal(),
      apiSecret: venue.apiSecret.reveal(),
      brokerClientId: brokerClientIdOf(config),
      label: `${venueUrlLabel(venue.restUrl)}${synthetic ? ' (SYNTHETIC feed)' : ''}`,
    },
    synthetic,
    serverClock,
    sessionClock,
    // The strategies' clock and timers are the venue's too, at the rate it states (keel venue --speed).
    scheduler: liveSessionScheduler(serverClock, sessionClock),
    lockstep: false,
    sourceWarnings: () => history.warnings(),
    fillModel: { name: 'venue', description: 'Fills as the venue reported them.' },
  });
}
