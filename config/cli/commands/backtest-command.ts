import {
  denialSummary,
  figuresLine,
  firstDenialReason,
  formatStrategyFault,
  formatStrategyRejection,
  liquidationNotice,
  loanParts,
  loansLine,
  OutputLocked,
  paidLine,
  shownPath,
  tookOverWarning,
  warningsAndNotes,
} from '../../../backtest/report/index.ts';
import { EmptyReplayWindowError, WarmUpTookEverythingError } from '../../../backtest/runner/index.ts';
import { backtestToFiles } from '../../compose/backtest-run.ts';
import { configRecordingProblems } from '../../compose/config-recording-problems.ts';
import { OutputCollision } from '../../compose/output-collisions.ts';
import { UnwritableOutputs } from '../../compose/output-path-check.ts';
import { csvRecordingProblem } from '../../compose/recording-problems.ts';
import { replayWindowProblem } from '../../compose/replay-window-check.ts';
import { runAbortable } from '../../compose/signal-abort.ts';
import { strategySlots } from '../../compose/strategy-plugins.ts';
import { warmUpTookEverythingProblem } from '../../compose/warm-up-problem.ts';
import { formatConfigProblem, type LoadedConfig } from '../../loader/index.ts';
import { accountCurrencyOf } from '../../schema/index.ts';
import { isBadInputFile } from '../bad-input-file.ts';
import type { CliIo } from '../cli-io.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { recordingOptionProblems } from '../recording-option-problems.ts';
import { eventCacheLines } from './event-cache-lines.ts';

/** Options of `keel backtest` beyond the config (`--from/--to` are applied to it as overrides). */
export interface BacktestOptions {
  /** Show a progress bar on stderr. */
  readonly progress: boolean;
  /** Recordings replacing the config's (e.g. the session `npm start` wrote); absent = the config's. */
  readonly recordings?: readonly string[];
}

/**
 * `keel backtest <config>`: replays the config's recordings through the simulated venue and
 * writes the result JSON, CSVs and HTML report, then says where they and the recordings' event
 * caches (`backtest.eventCache`) are. The config's mode is backtest (checked by the caller).
 * @param loaded - the validated config, `--from/--to/--set` applied
 * @param options - progress and recordings override
 * @param io - output streams
 * @returns EXIT.OK, EXIT.BAD_CONFIG_OR_USAGE for bad strategy params, a missing recording, one
 *   whose header cannot be read, a replay window outside the recordings or result files another
 *   run is writing or an output that cannot be written (found before the run), EXIT.RUNTIME_FAILURE
 *   when the run fails or its files cannot all be written at its end (the summary is printed and
 *   the files that could be written are kept, the result JSON first), EXIT.STRATEGY_FAULT when a strategy failed and was halted (after the files are written),
 *   EXIT.INTERRUPTED / EXIT.TERMINATED / EXIT.HANGUP when SIGINT / SIGTERM / SIGHUP stopped it: the run stops at its next
 *   batch, or the writing of its files before they replace the previous ones, and removes its
 *   temporary files (spill files, the event cache it was building, staged result files), no result
 *   written; a second signal meanwhile ends the process at once
 */
export async function backtestCommand(
  loaded: LoadedConfig,
  options: BacktestOptions,
  io: CliIo,
): Promise<ExitCode> {
  // A backtest has nothing to save when stopped: the first signal cancels the run, which removes
  // its temporary files as it stops at its next batch (said at once: a batch can take a while); a
  // second one ends the process at once, as it ends a session's shutdown (the exit hooks remove the
  // run lock and spill files then).
  const stopped = (signal: string) =>
    io.stderr.write(`✖ keel backtest ${shownPath(loaded.file)}: stopped by ${signal}; no result written\n`);
  const stopping = (signal: string) =>
    io.stderr.write(
      `${signal}: stopping after the current batch; ${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to quit now\n`,
    );
  return runAbortable({ stopping, forced: stopped }, (signal) =>
    backtestAndSummarize(loaded, options, io, signal),
  );
}

/** {@link backtestCommand} while SIGINT, SIGTERM and SIGHUP abort `signal`: it then throws the abort's reason. */
async function backtestAndSummarize(
  loaded: LoadedConfig,
  options: BacktestOptions,
  io: CliIo,
  signal: AbortSignal,
): Promise<ExitCode> {
  const slots = await strategySlots(loaded);
  if (!slots.ok) {
    for (const problem of slots.problems) io.stderr.write(`${formatConfigProblem(problem)}\n`);
    return EXIT.BAD_CONFIG_OR_USAGE;
  }
  const overridden = options.recordings !== undefined && options.recordings.length > 0;
  const missing = overridden
    ? recordingOptionProblems(options.recordings ?? [], loaded.dir)
    : (await configRecordingProblems(loaded)).map(formatConfigProblem);
  if (missing.length > 0) {
    for (const line of missing) io.stderr.write(`${line}\n`);
    return EXIT.BAD_CONFIG_OR_USAGE;
  }
  let outcome: Awaited<ReturnType<typeof backtestToFiles>>;
  try {
    outcome = await backtestToFiles(loaded, {
      slots: slots.slots,
      signal,
      // What an async hook's Promise rejected with: the user's own error, said as it comes.
      onStrategyRejection: (rejection) => io.stderr.write(`✖ ${formatStrategyRejection(rejection)}\n`),
      // Said as met, once per kind; the summary's warnings count them all.
      onRecordingDamage: (warning) => io.stderr.write(`warning: ${warning.message}\n`),
      onLockTakenOver: (stale) => io.stderr.write(`warning: ${tookOverWarning(stale)}\n`),
      ...(options.progress ? { progress: process.stderr } : {}),
      ...(options.recordings === undefined || options.recordings.length === 0
        ? {}
        : { recordings: options.recordings }),
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof UnwritableOutputs) {
      for (const problem of error.problems) io.stderr.write(`${formatConfigProblem(problem)}\n`);
      return EXIT.BAD_CONFIG_OR_USAGE;
    }
    if (error instanceof EmptyReplayWindowError) {
      io.stderr.write(`${formatConfigProblem(replayWindowProblem(loaded, error))}\n`);
      return EXIT.BAD_CONFIG_OR_USAGE;
    }
    if (error instanceof WarmUpTookEverythingError) {
      io.stderr.write(`${formatConfigProblem(warmUpTookEverythingProblem(loaded, error))}\n`);
      return EXIT.BAD_CONFIG_OR_USAGE;
    }
    const csvProblem = csvRecordingProblem(loaded, error);
    if (csvProblem !== undefined) {
      io.stderr.write(`${formatConfigProblem(csvProblem)}\n`);
      return EXIT.BAD_CONFIG_OR_USAGE;
    }
    io.stderr.write(`✖ keel backtest ${shownPath(loaded.file)}: ${(error as Error).message}\n`);
    return isBadInputFile(error) || error instanceof OutputLocked || error instanceof OutputCollision
      ? EXIT.BAD_CONFIG_OR_USAGE
      : EXIT.RUNTIME_FAILURE;
  }
  const { result, paths, eventCaches, unwritten } = outcome;
  // Said only of the files there: after a write failure, those written on their own.
  const there = (path: string) => unwritten === undefined || unwritten.written.includes(path);
  const settle =
    accountCurrencyOf(loaded.config.backtest?.startingCash ?? {}, loaded.config.instruments) ?? '';
  const faults = result.faults ?? [];
  const liquidated = liquidationNotice(result, settle);
  // As the report files them: post-only rejections are a note, not a setup warning.
  const said = warningsAndNotes(result.meta.warnings ?? [], result.orders);
  const denied = denialSummary(result);
  const denialsCsv = paths.csv.find((path) => path.endsWith('.denials.csv'));
  io.stdout.write(
    [
      `${faults.length > 0 ? '✖' : liquidated === undefined ? '✔' : '⚠'} ${result.meta.title}${result.meta.synthetic ? ' (SYNTHETIC data)' : ''}` +
        (faults.length > 0
          ? `: ${faults.length === 1 ? 'a strategy' : `${faults.length} strategies`} failed and ${faults.length === 1 ? 'was' : 'were'} halted`
          : ''),
      ...faults.map((fault) => `  ✖ ${formatStrategyFault(fault)}`),
      ...(liquidated === undefined ? [] : [`  ⚠ ${liquidated}`]),
      ...said.warnings.map((warning) => `  ⚠ ${warning}`),
      ...said.notes.map((note) => `  note: ${note}`),
      figuresLine(result, settle),
      paidLine(result.metrics, settle, {
        perpetuals: loaded.config.instruments.some((instrument) => instrument.sym.includes('_PERP_')),
        loans: loaded.config.backtest?.loans !== undefined,
      }),
      ...loansLine(loanParts(result.cashFlows ?? [])),
      ...(denied === undefined
        ? []
        : [
            `  ${denied}${denialsCsv === undefined || !there(denialsCsv) ? '' : `: ${shownPath(denialsCsv)}`}`,
            `    the first: ${firstDenialReason(result)}`,
          ]),
      ...(there(paths.json) ? [`  result: ${shownPath(paths.json)}`] : []),
      ...(there(paths.html) ? [`  report: ${shownPath(paths.html)}`] : []),
      ...eventCacheLines(eventCaches, loaded.config.backtest?.eventCache !== false),
      '',
    ].join('\n'),
  );
  result.dispose?.();
  if (unwritten !== undefined) {
    const missing = [paths.json, ...paths.csv, paths.html]
      .filter((path) => !there(path))
      .map((path) => shownPath(path));
    io.stderr.write(
      `✖ keel backtest ${shownPath(loaded.file)}: ${unwritten.error.message}; not written: ${missing.join(', ')}\n`,
    );
    return EXIT.RUNTIME_FAILURE;
  }
  return faults.length > 0 ? EXIT.STRATEGY_FAULT : EXIT.OK;
}
