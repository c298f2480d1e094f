import type { Logger } from 'pino';
import type { BacktestResult, FillRecord, RecordLog } from '../../backtest/report/index.ts';
import type { FillModelName } from '../../backtest/sim/index.ts';
import type { KernelWarmUp, Scheduler, StrategySlot } from '../../core/kernel/index.ts';
import type { Dec, Execution, InstrumentSpec } from '../../core/model/index.ts';
import type { ServerClock } from '../../core/venue/index.ts';
import type { ExitCode } from '../cli/exit-codes.ts';
import type { KeelConfig } from '../schema/index.ts';
import type { RunMetrics } from './run-metrics.ts';
import type { RunOutputPaths } from './run-outputs.ts';
import type { SessionLoans } from './session-loans.ts';
import type { SessionFillModel, SessionLatency } from './session-result.ts';
import type { StatusSink } from './status-line.ts';

/** Everything a live or paper session needs; paper mode passes the embedded venue's addresses. */
export interface VenueSessionOptions {
  readonly config: KeelConfig;
  readonly mode: 'live' | 'paper';
  readonly slots: readonly StrategySlot[];
  readonly instruments: readonly InstrumentSpec[];
  readonly venue: {
    readonly restUrl: string;
    readonly privateWsUrl: string;
    readonly marketDataWsUrl: string;
    readonly apiKey: string;
    readonly apiSecret: string;
    /** brokerClientId of US-equity orders (the spec's PLACE_ORDER refuses an order without one). */
    readonly brokerClientId: string;
    /** How the venue is named in logs, the recording header and the report. */
    readonly label: string;
  };
  /** True when the market data is generated (labelled SYNTHETIC in the recording and report). */
  readonly synthetic: boolean;
  /**
   * The session's clock: what it stamps itself (equity points, the start and end, receive times
   * of recorded frames, see SessionRecorder.open) and the venue adapter stamps the events it
   * makes with. Paper: the embedded venue's replay clock; live: the venue's time as Keel estimates
   * it (`liveSessionClock`).
   */
  readonly sessionClock: () => number;
  /**
   * Keel's estimate of the venue's clock for the venue adapter to keep learning (live: the one
   * the checks before the session learnt, which `sessionClock` reads); default a new one.
   */
  readonly serverClock?: ServerClock;
  /** Acknowledge each market event to the paper venue after handling it (its lockstep mode). */
  readonly lockstep: boolean;
  /**
   * In lockstep, acknowledge no faster than this many times real time (by the events' venue
   * time), so a session lasts long enough to watch.
   */
  readonly lockstepSpeed?: number;
  /**
   * The venue's time runs at another pace than the wall clock (a paper replay in lockstep or at a
   * speed other than 1): Keel does not hold its place orders to the venue's rate on the wall
   * clock, as the paper venue counts them on its own time (and refuses one past its limit, 429).
   */
  readonly placeLimitOnVenueTime?: boolean;
  /** Stop after this long; absent = until a signal or `ended`. */
  readonly durationMs?: number;
  /** Resolves when the market source is exhausted (paper mode). */
  readonly ended?: Promise<void>;
  /**
   * What the result must say of the session's recorded inputs, asked at the end: lines of the
   * warm-up history and (paper mode) of the source recording that were skipped, a source that failed.
   */
  readonly sourceWarnings?: () => readonly string[];
  readonly logger: Logger;
  /** Status line; none when omitted. */
  readonly status?: StatusSink;
  /** Called on every fill (e.g. to print it). */
  readonly onFill?: (fill: Execution) => void;
  /** Told the `/metrics` URL once it is served (with `metrics.enabled`). */
  readonly onMetrics?: (url: string) => void;
  /** Install SIGINT / SIGTERM handlers for a graceful stop (default true). */
  readonly handleSignals?: boolean;
  /** The fill model behind the venue, for the report. */
  readonly fillModel: SessionFillModel;
  /** The paper venue's fill model when the run picked it (no `paper.fillModel`): warned about when it did not fit the data. */
  readonly defaultedFillModel?: FillModelName;
  /**
   * The strategies' clock and timers: default the wall clock. A live run's follow its
   * `sessionClock`; a paper run on the embedded venue follows the replay's time (see
   * replay-schedulers.ts); in lockstep one that follows event time also takes the venue's ticks to
   * its timers.
   */
  readonly scheduler?: Scheduler;
  /** The latency the paper venue applies (paper runs with `paper.latency`), for the report. */
  readonly latency?: SessionLatency;
  /**
   * The run tag put into generated references (see `newRunTag` in run-tag.ts); default a fresh one from
   * the wall clock and `Math.random`, so a restarted session never reuses a clientOrderId.
   */
  readonly runTag?: string;
  /**
   * Warm the strategies up on history before the market feed starts (config `warmUp`): the kernel
   * replays it on virtual time, every intent denied; the channels are subscribed after it.
   */
  readonly warmUp?: KernelWarmUp;
  /**
   * The session's metrics, their endpoint already serving when the config enables it (a run
   * serves it before its first slow step, see `runConfiguredSession`); the session closes it when
   * it ends. Absent: the session serves its own first.
   */
  readonly metrics?: RunMetrics;
}

/** The events a session handled, by stream. */
export interface SessionEventCount {
  readonly market: number;
  readonly userData: number;
}

/** What a session ends with. */
export interface VenueSessionOutcome {
  readonly exitCode: ExitCode;
  /** Every fill (the result's, on file for a long run). */
  readonly fills: RecordLog<FillRecord>;
  readonly intents: number;
  /** The events the session handled: market data, and the venue's User Data (order, fill, account...). */
  readonly events: SessionEventCount;
  readonly startEquity: Dec;
  readonly endEquity: Dec;
  readonly recording: string | undefined;
  readonly outputs: RunOutputPaths;
  /**
   * Why the result and report files were not written (a full disk; naming the file): the session
   * ended all the same, its summary says so, and it exits with EXIT.RUNTIME_FAILURE.
   */
  readonly outputsNotWritten?: string;
  /** With `outputsNotWritten`: `result.json` was in place before a CSV or the report failed. */
  readonly resultWritten?: boolean;
  readonly result: BacktestResult;
  /** Summary lines on what the session left on the venue as configured (orders, positions). */
  readonly notes?: readonly string[];
  /** The venue's loans when the session began and when it stopped, for the summary's loan line. */
  readonly loans?: SessionLoans;
}
