import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Subscription } from 'rxjs';
import {
  acquireRunLock,
  OutputLocked,
  type StaleLock,
  tookOverWarning,
} from '../../backtest/report/index.ts';
import { monotonicNow } from '../../core/kernel/index.ts';
import type { InstrumentSpec } from '../../core/model/index.ts';
import { MarketDataClient } from '../../core/venue/index.ts';
import type { LoadedConfig } from '../loader/index.ts';
import { venueUrlLabel } from '../schema/index.ts';
import { instrumentSpecsOf } from './instrument-specs.ts';
import { liveVenueStart } from './live-venue-start.ts';
import { sessionSubscriptions } from './market-subscriptions.ts';
import { OutputCollision, outputCollision, recordInputFiles } from './output-collisions.ts';
import { type EmbeddedPaperVenue, startEmbeddedPaperVenue } from './paper-run.ts';
import { runLogger } from './run-logger.ts';
import { SessionRecorder } from './session-recorder.ts';
import { startUpFailure } from './start-up-failure.ts';
import { type StartUpSignals, type StopSignal, watchStartUpSignals } from './start-up-signals.ts';
import { VenueMetrics } from './venue-metrics.ts';

/** Options of a market-data recording. */
export interface RecordRunOptions {
  /** Output file (default: the config's recording.path, else out/<name>-market.jsonl.gz). */
  readonly out?: string;
  /**
   * Stop after this many seconds; absent = until SIGINT / SIGTERM / SIGHUP, or (paper mode) until
   * the paper venue's market source is exhausted.
   */
  readonly durationSec?: number;
  /** Install SIGINT / SIGTERM / SIGHUP handlers (default true). */
  readonly handleSignals?: boolean;
  /** Told the `/metrics` URL once it is served (with `metrics.enabled`). */
  readonly onMetrics?: (url: string) => void;
}

/** What a recording run wrote. */
export interface RecordRunOutcome {
  readonly path: string;
  /** Frames written to the recording. */
  readonly frames: number;
  /**
   * Why it ended: the duration, a signal, the paper venue's market source was exhausted
   * (`ended`), or the recording could not be written (a full disk).
   */
  readonly stoppedBy: 'duration' | 'ended' | StopSignal | 'write-failed';
  /** What failed, naming the file, when `stoppedBy` is `write-failed`. */
  readonly failure?: string;
  /** What the recording lacks: the market stream down at the stop, a failed write (see `SessionRecorder.warnings`). */
  readonly warnings: readonly string[];
}

/**
 * Records the market data of a config's instruments (BBO, TRADE, 1m KLINE, MARK_PRICE of perpetuals) from the venue's
 * market-data WebSocket, without logging in or trading: live mode from the configured URL, paper
 * mode from the embedded paper venue (its clock stamps the frames, like a paper session's). When
 * the socket drops and reconnects, a gap record per sym says which stretch was missed. With
 * `metrics.enabled`, the market socket's connection, reconnects, inbound counts and events are
 * served on `/metrics` (see {@link VenueMetrics}). SIGINT, SIGTERM and SIGHUP (its terminal or
 * the supervisor's session closed) stop it, from its start: the recording is closed and synced,
 * whole, and a signal before the connection was up ends the run once that step is done. A second
 * one while it stops ends the process at once, after writing and syncing the frames buffered.
 * @param loaded - a validated config of mode live or paper
 * @param options - output, duration, signals
 * @returns where the recording went and how many frames it holds
 * @throws OutputCollision when the recording's path is one of the run's inputs (the config, the
 *   recording its paper venue replays, a strategy module), before anything starts; OutputLocked
 *   when another run writes that recording
 */
export async function recordMarketData(
  loaded: LoadedConfig,
  options: RecordRunOptions = {},
): Promise<RecordRunOutcome> {
  const { config } = loaded;
  const path = resolve(
    options.out ?? config.recording?.path ?? `out/${config.name ?? config.mode}-market.jsonl.gz`,
  );
  // Its output named by where it came from: --out, recording.path, or Keel's default.
  const what =
    options.out !== undefined
      ? '--out'
      : config.recording?.path !== undefined
        ? 'recording.path'
        : 'the recording';
  const collision = outputCollision([{ what, path }], recordInputFiles(loaded));
  if (collision !== undefined) throw new OutputCollision(collision);
  const locked = acquireRunLock([path], Date.now());
  if (!locked.ok) throw new OutputLocked(locked.problem);
  try {
    return await recordLocked(loaded, path, locked.lock.tookOver, options);
  } finally {
    locked.lock.release();
  }
}

/** {@link recordMarketData} while the recording's lock is held. */
async function recordLocked(
  loaded: LoadedConfig,
  path: string,
  tookOver: readonly StaleLock[],
  options: RecordRunOptions,
): Promise<RecordRunOutcome> {
  const { config } = loaded;
  const logger = runLogger(config.name ?? 'record', config.logging.level);
  const opened: OpenedRecording = { recorder: undefined };
  // From the first moment, as a session's start-up: no signal kills it with its recording open.
  // A second one (the first one's close may wait on the venue's socket) ends it at once, once
  // the frames buffered are written and synced: a few ms, never the venue's time.
  const signals = watchStartUpSignals(options.handleSignals !== false, (signal) => {
    opened.recorder?.close();
    logger.error(
      { signal, recording: path },
      `second ${signal}: keel record ends now, its recording closed with the frames received so far`,
    );
  });
  try {
    return await recordWatched(loaded, path, tookOver, options, { signals, logger, opened });
  } finally {
    signals.end();
  }
}

/** The recording of a run, once opened: a second signal closes it before the process ends. */
interface OpenedRecording {
  recorder: SessionRecorder | undefined;
}

/** What {@link recordLocked} hands to {@link recordWatched}. */
interface RecordWatch {
  /** The first SIGINT, SIGTERM or SIGHUP stops the run. */
  readonly signals: StartUpSignals;
  readonly logger: Logger;
  /** Where the recorder goes once opened. */
  readonly opened: OpenedRecording;
}

/** {@link recordLocked} while SIGINT, SIGTERM and SIGHUP are watched: the first one stops it. */
async function recordWatched(
  loaded: LoadedConfig,
  path: string,
  tookOver: readonly StaleLock[],
  options: RecordRunOptions,
  { signals, logger, opened: held }: RecordWatch,
): Promise<RecordRunOutcome> {
  const { config } = loaded;
  for (const stale of tookOver)
    logger.warn({ lock: stale.path, holderPid: stale.pid }, tookOverWarning(stale));
  // A recorder runs for days: its connection and inbound traffic are served as a session's are.
  // Listened on first: a taken port stops the run before the earlier recording is moved aside.
  const metrics = config.metrics.enabled ? new VenueMetrics() : undefined;
  if (metrics !== undefined) {
    const metricsUrl = await metrics.listen(config.metrics.host, config.metrics.port);
    logger.info({ url: metricsUrl }, 'Prometheus metrics served');
    options.onMetrics?.(metricsUrl);
  }
  let embedded: EmbeddedPaperVenue | undefined;
  let recorder: SessionRecorder | undefined;
  let client: MarketDataClient | undefined;
  let gaps: Subscription | undefined;
  let stopped: Pick<RecordRunOutcome, 'stoppedBy' | 'failure'>;
  // What it was starting, until it records: `/readyz` names it, and why, if it fails.
  let starting: string | undefined =
    config.mode === 'paper' ? 'cannot start its paper venue' : 'cannot read its instruments from the venue';
  try {
    const source = await recordSource(loaded, logger);
    embedded = source.embedded;
    const venue = embedded?.venue;
    const { instruments, clock, synthetic } = source;
    const url = venue?.marketDataWsUrl ?? config.venue?.marketDataWsUrl;
    starting = 'cannot find its market data stream';
    if (url === undefined) throw new Error(`${loaded.file} has no venue section`);
    // A recording that cannot be written (a full disk) ends the run: recording is all it does.
    let failure: string | undefined;
    let stopOnFailure = (): void => {};
    starting = 'cannot open its recording';
    const opened = await SessionRecorder.open(
      path,
      {
        venue: `${venue === undefined ? venueUrlLabel(url) : 'Keel paper venue'}${synthetic ? ' (SYNTHETIC feed)' : ''}`,
        symbols: instruments.map((s) => s.sym),
        startTime: Date.now(),
        synthetic,
        description: `market data recorded by keel record${synthetic ? ' from SYNTHETIC data (generated, not a real market)' : ''}`,
      },
      clock,
      {
        onFailure: (message) => {
          logger.error({ path }, message);
          failure = message;
          stopOnFailure();
        },
        afterFailure: 'keel record stops',
      },
    );
    recorder = opened;
    held.recorder = opened;
    const market = new MarketDataClient({ url, logger, onRaw: opened.tap });
    client = market;
    // What a drop and reconnect missed is written down, so a backtest of the file warns of the hole.
    gaps = market.events.subscribe((event) => {
      if (event.kind === 'gap') opened.gap(event);
    });
    // One still down at the stop has not reconnected: the recorder writes its gaps as it closes.
    gaps.add(market.status.subscribe((status) => opened.marketStream(status.state === 'up' ? 'up' : 'down')));
    if (metrics !== undefined) {
      metrics.watchVenue(market.status, { market: market.counters });
      market.events.subscribe((event) => metrics.events.inc({ kind: event.kind }));
    }
    // A signal while it connects stops it there (the connection may take its open timeout).
    starting = `cannot connect to the market data stream at ${venueUrlLabel(url)}`;
    const connected = market.connect();
    connected.catch(() => {});
    await Promise.race([connected, signals.arrived]);
    market.subscribeAll(sessionSubscriptions(instruments));
    logger.info(
      {
        path,
        syms: instruments.map((s) => s.sym),
        ...(opened.keptPrevious ? { kept: opened.keptPrevious } : {}),
      },
      'recording market data',
    );
    starting = undefined;
    const stoppedBy = await new Promise<RecordRunOutcome['stoppedBy']>((done) => {
      const timer =
        options.durationSec === undefined
          ? undefined
          : setTimeout(() => finish('duration'), options.durationSec * 1000);
      function finish(reason: RecordRunOutcome['stoppedBy']) {
        if (timer !== undefined) clearTimeout(timer);
        done(reason);
      }
      signals.arrived.then(finish);
      // A paper source that ends (a recording replayed, a SYNTHETIC one of set length) sends
      // nothing more: the recording stops once the frames already pushed have arrived.
      embedded?.ended.then(() => framesSettled(opened).then(() => finish('ended')));
      stopOnFailure = () => finish('write-failed');
      if (failure !== undefined) stopOnFailure();
    });
    metrics?.stopping(`keel record is stopping (${recordStopWords(stoppedBy)})`);
    stopped = { stoppedBy, ...(failure === undefined ? {} : { failure }) };
  } catch (error) {
    if (starting !== undefined) metrics?.stopping(startUpFailure('keel record', starting, error));
    throw error;
  } finally {
    // From here it records nothing more: a supervisor's readiness probe says so at once.
    metrics?.stopping('keel record is stopping');
    await client?.close();
    await metrics?.close();
    gaps?.unsubscribe();
    recorder?.close();
    await embedded?.venue.close();
  }
  // Read once closed: the frames received while it stopped are written by then, and a market
  // stream still down at the stop has its gaps.
  return { path, frames: recorder.recorded, warnings: recorder.warnings(), ...stopped };
}

/** How long no frame arrives before the frames a finished paper source pushed count as all in, ms (Keel's choice). */
const FRAMES_SETTLED_MS = 200;
/** The longest wait for them, ms (Keel's choice): a venue still pushing after its end is not waited for. */
const FRAMES_SETTLED_MAX_MS = 5_000;

/**
 * Resolves once no frame reached the recording for {@link FRAMES_SETTLED_MS} (at most
 * {@link FRAMES_SETTLED_MAX_MS}): the last frames a paper venue pushed before its source ended
 * are still on the loopback socket when the end is seen.
 */
function framesSettled(recorder: SessionRecorder): Promise<void> {
  return new Promise((done) => {
    const started = monotonicNow();
    let seen = recorder.recorded;
    const check = (): void => {
      if (recorder.recorded === seen || monotonicNow() - started >= FRAMES_SETTLED_MAX_MS) done();
      else {
        seen = recorder.recorded;
        setTimeout(check, FRAMES_SETTLED_MS);
      }
    };
    setTimeout(check, FRAMES_SETTLED_MS);
  });
}

/** Why a recording stops, as its `/readyz` says it: the signal's name, or what ended it. */
function recordStopWords(reason: RecordRunOutcome['stoppedBy']): string {
  if (reason === 'duration') return 'its duration is over';
  if (reason === 'ended') return 'its paper market source ended';
  if (reason === 'write-failed') return 'its recording cannot be written';
  return reason;
}

/** Where a recording's frames come from, their instruments, and the clock that stamps them. */
interface RecordSource {
  /** The embedded paper venue of a paper config. */
  readonly embedded: EmbeddedPaperVenue | undefined;
  readonly instruments: readonly InstrumentSpec[];
  /** Whether the feed is SYNTHETIC: the recording is labelled, as a session's is. */
  readonly synthetic: boolean;
  readonly clock: () => number;
}

/**
 * A paper config's embedded paper venue (Keel's built-in specs, its own clock stamping the
 * frames, as a paper session's), or what a live config's venue says (see {@link liveVenueStart}).
 */
async function recordSource(loaded: LoadedConfig, logger: Logger): Promise<RecordSource> {
  const { config } = loaded;
  if (config.mode === 'paper') {
    const instruments = instrumentSpecsOf(config.instruments);
    // Nobody acknowledges events while recording: the paper venue runs in real time at its speed.
    const realtime =
      config.paper === undefined
        ? loaded
        : { ...loaded, config: { ...config, paper: { ...config.paper, lockstep: false } } };
    const embedded = await startEmbeddedPaperVenue(realtime, instruments, Date.now(), logger);
    const { venue } = embedded;
    return { embedded, instruments, synthetic: embedded.synthetic, clock: () => venue.now() };
  }
  if (config.venue === undefined) throw new Error(`${loaded.file} has no venue section`);
  const { instruments, synthetic, clock } = await liveVenueStart(config.venue, config.instruments, logger);
  return { embedded: undefined, instruments, synthetic, clock };
}
