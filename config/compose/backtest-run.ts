import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RecordingWarning } from '../../backtest/recording/index.ts';
import type { AnnualizationBasis, BacktestResult } from '../../backtest/report/index.ts';
import {
  acquireRunLock,
  FileWriteError,
  OutputLocked,
  type StaleLock,
  shownPath,
} from '../../backtest/report/index.ts';
import {
  createProgressReporter,
  defaultAnnualizationOf,
  eventCachePaths,
  type ReplaySource,
  type ReplaySourceOptions,
  runBacktest,
} from '../../backtest/runner/index.ts';
import { type StrategyRejection, type StrategySlot, wallClock } from '../../core/kernel/index.ts';
import type { InstrumentSpec } from '../../core/model/index.ts';
import { RiskGate } from '../../core/risk/index.ts';
import type { LoadedConfig } from '../loader/index.ts';
import {
  accountCurrencyOf,
  type BacktestConfig,
  riskGateConfigOf,
  strategyName,
  warmUpPeriodOf,
} from '../schema/index.ts';
import { decodeSessionRecord, SESSION_DECODER_ID } from '../session-decoder.ts';
import { defaultedSpecNotes, instrumentSpecsOf } from './instrument-specs.ts';
import { ohlcvCsvSourceOf } from './ohlcv-csv-sources.ts';
import { OutputCollision, outputCollision, runInputFiles, runOutputFiles } from './output-collisions.ts';
import { outputPathProblems, UnwritableOutputs } from './output-path-check.ts';
import {
  csvPathsOf,
  type RunOutputPaths,
  reportPathsOf,
  salvageRunOutputs,
  writeRunOutputs,
} from './run-outputs.ts';
import {
  configLoanAdvice,
  fillModelOf,
  latencyOf,
  loanOptionsOf,
  specsWithFees,
  subPortfolioMarkupOf,
  subPortfolioOf,
} from './sim-models.ts';

/** Inputs of a configured backtest beyond the config. */
export interface ConfiguredBacktestOptions {
  /** Strategy slots (from `strategySlots`). */
  readonly slots: readonly StrategySlot[];
  /** Show progress on this stream (a bar on a TTY, lines otherwise); silent when omitted. */
  readonly progress?: NodeJS.WritableStream & { readonly isTTY?: boolean };
  /** Replaces the config's recordings (e.g. `keel backtest --recording out/paper-session.jsonl.gz`). */
  readonly recordings?: readonly string[];
  /** Told what a halted async strategy's Promise rejected with, e.g. to print it (never in the result). */
  readonly onStrategyRejection?: (rejection: StrategyRejection) => void;
  /** Told the first skipped line of each kind of each recording (the result warns of them all); default stderr. */
  readonly onRecordingDamage?: (warning: RecordingWarning) => void;
  /** Cancels the run (see `BacktestRunOptions.signal`) and, in {@link backtestToFiles}, the writing of its files. */
  readonly signal?: AbortSignal;
  /** Where the run makes its spill directory (see `BacktestRunOptions.spillIn`); default the OS temporary directory. */
  readonly spillIn?: string;
}

/** Where a recording's event cache is, and whether it is there after the run. */
export interface EventCacheFile {
  readonly recording: string;
  /** The cache's data file (`<recording>.events.bin`; its meta is `<recording>.events.json`). */
  readonly data: string;
  /**
   * False when no cache could be kept: the recording holds events the cache cannot hold (book
   * depth, mark prices), it changed while read, or its directory is not writable.
   */
  readonly present: boolean;
  /** True when the run replayed a cache an earlier run kept (its data file unchanged); false when it built one. */
  readonly reused: boolean;
}

/** What a cache data file is now (inode, size, modification time), or undefined when there is none. */
function cacheStamp(data: string): string | undefined {
  try {
    const stat = statSync(data, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch {
    return undefined;
  }
}

/**
 * The recordings' event cache data files as they are before a run, for {@link eventCacheFiles}
 * to tell a cache reused from one built.
 * @param loaded - a validated config of mode backtest
 * @param override - recordings replacing the config's
 * @returns each cache data file's stamp, by path (undefined when absent)
 */
export function eventCacheStamps(
  loaded: LoadedConfig,
  override?: readonly string[],
): ReadonlyMap<string, string | undefined> {
  if (loaded.config.backtest?.eventCache === false) return new Map();
  return new Map(
    backtestRecordings(loaded, override).map((recording) => {
      const { data } = eventCachePaths(recording);
      return [data, cacheStamp(data)];
    }),
  );
}

/**
 * The recordings a config's backtest replays, as `shownPath` gives them (relative to the working
 * directory when under it), so the result file names them the same wherever the project lies; its
 * OHLCV CSVs, which keep no event cache, are left out.
 * @param loaded - a validated config of mode backtest
 * @param override - recordings replacing the config's (relative to the working directory)
 * @returns paths that open the recordings from the working directory
 */
export function backtestRecordings(loaded: LoadedConfig, override?: readonly string[]): string[] {
  return backtestSources(loaded, override).filter((source): source is string => typeof source === 'string');
}

/**
 * What a config's backtest replays: its recordings as {@link backtestRecordings} gives them, and
 * its OHLCV CSVs with their reading options (`ohlcvCsvSourceOf`), in the config's order.
 * @param loaded - a validated config of mode backtest
 * @param override - recordings replacing the config's (relative to the working directory)
 * @returns the sources, paths opening from the working directory
 */
export function backtestSources(loaded: LoadedConfig, override?: readonly string[]): ReplaySource[] {
  if (override !== undefined) return override.map((path) => shownPath(path));
  return (loaded.config.backtest?.recordings ?? []).map((entry) =>
    typeof entry === 'string' ? shownPath(resolve(loaded.dir, entry)) : ohlcvCsvSourceOf(entry, loaded.dir),
  );
}

/**
 * The event cache files of a config's recordings (`backtest.eventCache`, on by default): next
 * to each recording.
 * @param loaded - a validated config of mode backtest
 * @param override - recordings replacing the config's
 * @param before - {@link eventCacheStamps} taken before the run; without it no cache counts as reused
 * @returns one entry per recording; empty when the cache is off
 */
export function eventCacheFiles(
  loaded: LoadedConfig,
  override?: readonly string[],
  before: ReadonlyMap<string, string | undefined> = new Map(),
): EventCacheFile[] {
  if (loaded.config.backtest?.eventCache === false) return [];
  return backtestRecordings(loaded, override).map((recording) => {
    const paths = eventCachePaths(recording);
    const present = existsSync(paths.data) && existsSync(paths.meta);
    const was = before.get(paths.data);
    return {
      recording,
      data: paths.data,
      present,
      reused: present && was !== undefined && was === cacheStamp(paths.data),
    };
  });
}

/**
 * What a config's backtest replays and how: its sources ({@link backtestSources}), the session
 * decoder, the event cache (`backtest.eventCache`), the replay window and the warm-up.
 * @param loaded - a validated config of mode backtest
 * @param recordings - recordings replacing the config's
 * @returns the replay part of the run's options
 */
export function replayOptionsOf(
  loaded: LoadedConfig,
  recordings?: readonly string[],
): Required<Pick<ReplaySourceOptions, 'recordings' | 'decode'>> &
  Pick<ReplaySourceOptions, 'eventCache' | 'window' | 'warmUp'> {
  const { config } = loaded;
  const backtest = config.backtest;
  return {
    recordings: backtestSources(loaded, recordings),
    decode: decodeSessionRecord,
    ...(backtest?.eventCache === true ? { eventCache: { decoderId: SESSION_DECODER_ID } } : {}),
    // The window applies after decoding (and after the cache), so the run sees the recordings'
    // whole span and can say so when the window misses it.
    ...(backtest?.from === undefined && backtest?.to === undefined
      ? {}
      : {
          window: {
            ...(backtest.from === undefined ? {} : { from: backtest.from }),
            ...(backtest.to === undefined ? {} : { to: backtest.to }),
          },
        }),
    ...(config.warmUp === undefined ? {} : { warmUp: warmUpPeriodOf(config.warmUp) }),
  };
}

/**
 * Runs the backtest a config describes: its recordings (relative to the config file) through
 * the venue's decoders, the simulated venue with the configured fill, latency and fee models,
 * the kernel with the strategies, and the risk gate with the global and per-strategy limits.
 * With `backtest.eventCache` (the default) each recording's decoded market events are cached
 * next to it and replayed from there while the cache is valid; the replay window is then applied
 * after the cache, so one cache serves every window. Results are the same either way.
 * @param loaded - a validated config of mode backtest
 * @param options - strategy slots, progress stream, recordings override
 * @returns the result (deterministic for the same inputs); call its `dispose()` when done, which
 *   removes its temporary files
 * @throws Error when the config has no backtest section or a recording cannot be read
 */
export async function runConfiguredBacktest(
  loaded: LoadedConfig,
  options: ConfiguredBacktestOptions,
): Promise<BacktestResult> {
  const { config } = loaded;
  const backtest = config.backtest;
  if (backtest === undefined) throw new Error(`${loaded.file} has no backtest section`);
  const settleAsset = accountCurrencyOf(backtest.startingCash, config.instruments);
  const startingCash = settleAsset === undefined ? undefined : backtest.startingCash[settleAsset];
  if (settleAsset === undefined || startingCash === undefined)
    throw new Error(`${loaded.file}: backtest.startingCash names no asset`);
  const startingCoins = Object.entries(backtest.startingCash).filter(([coin]) => coin !== settleAsset);
  const instruments = specsWithFees(instrumentSpecsOf(config.instruments), backtest.fees);
  const subPortfolioMarkup = subPortfolioMarkupOf(config);
  const subPortfolio = subPortfolioOf(config);
  const loans = loanOptionsOf(backtest.loans, configLoanAdvice('backtest.loans'));
  return runBacktest({
    title: `Backtest of ${config.name ?? config.strategies.map((s) => strategyName(s.use)).join(', ')}`,
    ...replayOptionsOf(loaded, options.recordings),
    instruments,
    ...(backtest.fees?.model === 'flat' ? { feeSchedule: 'flat' as const } : {}),
    ...(subPortfolio === undefined ? {} : { subPortfolio }),
    strategies: options.slots,
    gate: new RiskGate(riskGateConfigOf(config)),
    startingCash,
    settleAsset,
    ...(startingCoins.length === 0 ? {} : { startingCoins: Object.fromEntries(startingCoins) }),
    ...(backtest.fillModel === undefined ? {} : { fillModel: fillModelOf(backtest.fillModel) }),
    sim: {
      positionMode: backtest.positionMode,
      ...(subPortfolioMarkup === undefined ? {} : { subPortfolioMarkup }),
      loans,
    },
    ...(backtest.latency === undefined
      ? {}
      : { latency: latencyOf(backtest.latency), seed: backtest.latency.seed }),
    closeAtEnd: backtest.closeAtEnd,
    cancelOrdersOnFault: config.risk.cancelOrdersOnFault,
    cancelOrdersOnHalt: config.risk.killSwitch.cancelOrdersOnHalt,
    annualization: annualizationOf(backtest, instruments),
    assumptions: defaultedSpecNotes(instruments),
    ...(options.progress === undefined
      ? {}
      : { progress: createProgressReporter({ stream: options.progress, clock: wallClock }) }),
    ...(options.onStrategyRejection === undefined
      ? {}
      : { onStrategyRejection: options.onStrategyRejection }),
    ...(options.onRecordingDamage === undefined ? {} : { onRecordingDamage: options.onRecordingDamage }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.spillIn === undefined ? {} : { spillIn: options.spillIn }),
  });
}

/**
 * The annualization basis of a configured backtest: the config's, with 252 trading days a year
 * when every instrument is a US equity and the config names none, and then the per-sample grid on
 * the US equity session's hours.
 * @param backtest - the backtest settings
 * @param instruments - the run's instruments
 * @returns the basis
 */
export function annualizationOf(
  backtest: BacktestConfig,
  instruments: readonly InstrumentSpec[],
): AnnualizationBasis {
  const { tradingDaysPerYear, period, periodsPerYear, sampleStepMs, riskFreeRate } = backtest.annualization;
  const byInstruments = defaultAnnualizationOf(instruments);
  return {
    tradingDaysPerYear: tradingDaysPerYear ?? byInstruments.tradingDaysPerYear,
    period,
    riskFreeRate,
    ...(byInstruments.tradingHours === undefined ? {} : { tradingHours: byInstruments.tradingHours }),
    ...(periodsPerYear === undefined ? {} : { periodsPerYear }),
    ...(sampleStepMs === undefined ? {} : { sampleStepMs }),
  };
}

/** What {@link backtestToFiles} did. */
export interface BacktestFilesOutcome {
  /** The result: call its `dispose()` when done, which removes its temporary files. */
  readonly result: BacktestResult;
  readonly paths: RunOutputPaths;
  /** The recordings' event caches; empty when `backtest.eventCache` is off. */
  readonly eventCaches: readonly EventCacheFile[];
  /**
   * When the files could not all be written (a full disk): why, and the files that were (each
   * on its own, the JSON first); the others are not there. Absent when all were written.
   */
  readonly unwritten?: { readonly error: Error; readonly written: readonly string[] };
}

/** Inputs of {@link backtestToFiles}. */
export interface BacktestToFilesOptions extends ConfiguredBacktestOptions {
  /** Told of a lock of the result JSON taken over from a run that is gone (`tookOverWarning`), e.g. to print it. */
  readonly onLockTakenOver?: (stale: StaleLock) => void;
}

/**
 * Runs a configured backtest and writes its result JSON, CSVs and HTML report, holding the run
 * locks of its result JSON and HTML report meanwhile (as live and paper runs do), so two backtests writing the same
 * files (one config run twice with different `--set`s) cannot mix them: the second is refused
 * before it runs. A lock left by a run that is gone is taken over and told to `onLockTakenOver`.
 * @param loaded - a validated config of mode backtest
 * @param options - strategy slots, progress stream, recordings override, takeover callback
 * @returns the result, where its files went and where the event caches are; when its files could
 *   not all be written (a full disk), `unwritten` says why and which were, each written on its own
 * @throws OutputCollision when an output is one of the run's inputs (recording, config, strategy
 *   module) or another output
 * @throws UnwritableOutputs when an output cannot be written (checked before the run starts)
 * @throws OutputLocked when another run holds the lock of its result JSON or HTML report
 * @throws Error when the run fails (the result's temporary files are then removed);
 *   `options.signal.reason` when the signal aborted the run or the writing, before the files
 *   replaced the previous ones (the staged files are then removed too)
 */
export async function backtestToFiles(
  loaded: LoadedConfig,
  options: BacktestToFilesOptions,
): Promise<BacktestFilesOutcome> {
  options.signal?.throwIfAborted();
  const collision = outputCollision(runOutputFiles(loaded), runInputFiles(loaded, options.recordings));
  if (collision !== undefined) throw new OutputCollision(collision);
  const unwritable = outputPathProblems(loaded);
  if (unwritable.length > 0) throw new UnwritableOutputs(unwritable);
  const outputs = reportPathsOf(loaded.config);
  // Each file a run writes under its own name is locked: two runs sharing only their report
  // would otherwise write it in turn, both saying it is theirs (the CSVs follow the JSON's name).
  const locked = acquireRunLock([outputs.json, outputs.html], Date.now());
  if (!locked.ok) throw new OutputLocked(locked.problem);
  for (const stale of locked.lock.tookOver) options.onLockTakenOver?.(stale);
  try {
    const before = eventCacheStamps(loaded, options.recordings);
    const result = await runConfiguredBacktest(loaded, options);
    const settleAsset =
      accountCurrencyOf(loaded.config.backtest?.startingCash ?? {}, loaded.config.instruments) ?? 'USDT';
    const paths = { ...outputs, csv: csvPathsOf(outputs.json) };
    try {
      await writeRunOutputs(result, outputs, settleAsset, options.signal);
      return { result, paths, eventCaches: eventCacheFiles(loaded, options.recordings, before) };
    } catch (error) {
      if (options.signal?.aborted === true) {
        result.dispose?.();
        throw error;
      }
      // The run is done: what can still be written is kept, the JSON first, not thrown away.
      const failed = error instanceof FileWriteError ? error.path : undefined;
      const written = await salvageRunOutputs(result, outputs, settleAsset, failed, options.signal).catch(
        (stopped: unknown) => {
          result.dispose?.();
          throw stopped;
        },
      );
      return {
        result,
        paths,
        eventCaches: eventCacheFiles(loaded, options.recordings, before),
        unwritten: { error: error as Error, written },
      };
    }
  } finally {
    locked.lock.release();
  }
}
