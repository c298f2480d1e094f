import { resolve } from 'node:path';
import type { RecordDecoder } from '../../backtest/recording/index.ts';
import type { BacktestResult } from '../../backtest/report/index.ts';
import { createProgressReporter, runBacktest } from '../../backtest/runner/index.ts';
import { type StrategySlot, wallClock } from '../../core/kernel/index.ts';
import type { KeelEvent } from '../../core/model/index.ts';
import { RiskGate } from '../../core/risk/index.ts';
import type { LoadedConfig } from '../loader/index.ts';
import { type BacktestConfig, riskGateConfigOf } from '../schema/index.ts';
import { decodeSessionRecord } from '../session-decoder.ts';
import { instrumentSpecsOf } from './instrument-specs.ts';
import { type RunOutputPaths, reportPathsOf, writeRunOutputs } from './run-outputs.ts';
import { fillModelOf, latencyOf, specsWithFees } from './sim-models.ts';

/** Inputs of a configured backtest beyond the config. */
export interface ConfiguredBacktestOptions {
  /** Strategy slots (from `strategySlots`). */
  readonly slots: readonly StrategySlot[];
  /** Show progress on this stream (a bar on a TTY, lines otherwise); silent when omitted. */
  readonly progress?: NodeJS.WritableStream & { readonly isTTY?: boolean };
  /** Replaces the config's recordings (e.g. `keel backtest --recording out/paper-session.jsonl.gz`). */
  readonly recordings?: readonly string[];
}

/**
 * The venue decoder limited to the config's replay window: records received before `from` or
 * at / after `to` are skipped before decoding.
 * @param backtest - the backtest settings
 * @returns the record decoder
 */
export function windowedDecoder(backtest: BacktestConfig): RecordDecoder<KeelEvent> {
  const from = backtest.from ?? Number.NEGATIVE_INFINITY;
  const to = backtest.to ?? Number.POSITIVE_INFINITY;
  if (from === Number.NEGATIVE_INFINITY && to === Number.POSITIVE_INFINITY) return decodeSessionRecord;
  return (record) => (record.recvTs < from || record.recvTs >= to ? null : decodeSessionRecord(record));
}

/**
 * Runs the backtest a config describes: its recordings (relative to the config file) through
 * the venue's decoders, the simulated venue with the configured fill, latency and fee models,
 * the kernel with the strategies, and the risk gate with the global and per-strategy limits.
 * @param loaded - a validated config of mode backtest
 * @param options - strategy slots, progress stream, recordings override
 * @returns the result (deterministic for the same inputs)
 * @throws Error when the config has no backtest section or a recording cannot be read
 */
export async function runConfiguredBacktest(
  loaded: LoadedConfig,
  options: ConfiguredBacktestOptions,
): Promise<BacktestResult> {
  const { config } = loaded;
  const backtest = config.backtest;
  if (backtest === undefined) throw new Error(`${loaded.file} has no backtest section`);
  const [settleAsset, startingCash] = Object.entries(backtest.startingCash)[0] ?? [];
  if (settleAsset === undefined || startingCash === undefined)
    throw new Error(`${loaded.file}: backtest.startingCash names no asset`);
  const recordings = (options.recordings ?? backtest.recordings.map((path) => resolve(loaded.dir, path))).map(
    (path) => resolve(path),
  );
  const instruments = specsWithFees(instrumentSpecsOf(config.instruments), config, backtest.fees);
  return runBacktest({
    title: `Backtest of ${config.name ?? config.strategies.map((s) => s.use).join(', ')}`,
    recordings,
    decode: windowedDecoder(backtest),
    instruments,
    strategies: options.slots,
    gate: new RiskGate(riskGateConfigOf(config)),
    startingCash,
    settleAsset,
    ...(backtest.fillModel === undefined ? {} : { fillModel: fillModelOf(backtest.fillModel) }),
    ...(backtest.latency === undefined
      ? {}
      : { latency: latencyOf(backtest.latency), seed: backtest.latency.seed }),
    closeAtEnd: backtest.closeAtEnd,
    ...(options.progress === undefined
      ? {}
      : { progress: createProgressReporter({ stream: options.progress, clock: wallClock }) }),
  });
}

/**
 * Runs a configured backtest and writes its result JSON, CSVs and HTML report.
 * @param loaded - a validated config of mode backtest
 * @param options - strategy slots, progress stream, recordings override
 * @returns the result and where its files went
 */
export async function backtestToFiles(
  loaded: LoadedConfig,
  options: ConfiguredBacktestOptions,
): Promise<{ readonly result: BacktestResult; readonly paths: RunOutputPaths }> {
  const result = await runConfiguredBacktest(loaded, options);
  const settleAsset = Object.keys(loaded.config.backtest?.startingCash ?? {})[0] ?? 'USDT';
  const paths = await writeRunOutputs(result, reportPathsOf(loaded.config), settleAsset);
  return { result, paths };
}
