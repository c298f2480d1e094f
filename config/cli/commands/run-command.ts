import { PortInUse } from '../../compose/port-in-use.ts';
import { runConfiguredSession } from '../../compose/session-run.ts';
import { signalExitCode } from '../../compose/session-stop.ts';
import { formatFill, formatSessionSummary } from '../../compose/session-summary.ts';
import { StartUpInterrupted } from '../../compose/start-up-signals.ts';
import type { LoadedConfig } from '../../loader/index.ts';
import { isBadInputFile } from '../bad-input-file.ts';
import type { CliIo } from '../cli-io.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { metricsUrlPrinter } from '../metrics-url-printer.ts';
import { portInUseLocation } from '../port-in-use-location.ts';

/** Options of `keel run`. */
export interface RunOptions {
  /** Stop after this many seconds (overrides paper.durationSec); absent = until SIGINT. */
  readonly durationSec: number | undefined;
}

/**
 * `keel run <config>`: runs the strategies live (against the venue) or on paper (against the
 * embedded paper venue), with pino logs, a status line, and a graceful shutdown on SIGINT /
 * SIGTERM / SIGHUP. The config's mode is live or paper (checked by the caller).
 * @param loaded - the validated config
 * @param options - run options
 * @param io - output streams
 * @returns EXIT.OK, EXIT.INTERRUPTED / EXIT.TERMINATED / EXIT.HANGUP after a signal (also one during start-up,
 *   which stops the run before it trades), EXIT.BAD_CONFIG_OR_USAGE
 *   for bad strategy params, a paper source recording whose header cannot be read or a
 *   `metrics.port` another process listens on, EXIT.RUNTIME_FAILURE when the venue cannot be reached or the run fails,
 *   EXIT.STRATEGY_FAULT when a strategy failed and was halted (after the result and report are written)
 */
export async function runCommand(loaded: LoadedConfig, options: RunOptions, io: CliIo): Promise<ExitCode> {
  let synthetic = false;
  try {
    const outcome = await runConfiguredSession(loaded, {
      ...(options.durationSec === undefined ? {} : { durationSec: options.durationSec }),
      status: process.stderr,
      onFill: (fill) => io.stdout.write(`${formatFill(fill)}\n`),
      onMetrics: metricsUrlPrinter(loaded.config, io),
      onVenue: (url, isSynthetic) => {
        synthetic = isSynthetic;
        io.stdout.write(
          `${loaded.config.mode} run against ${url}${isSynthetic ? ' (SYNTHETIC market data)' : ''}; Ctrl-C stops it\n`,
        );
      },
    });
    if (!outcome.ok) {
      for (const problem of outcome.problems) io.stderr.write(`${problem}\n`);
      return EXIT.BAD_CONFIG_OR_USAGE;
    }
    io.stdout.write(formatSessionSummary(outcome, synthetic));
    // The algo orders and denials were read back from the session's spill files: removed now.
    outcome.result.dispose?.();
    return outcome.exitCode;
  } catch (error) {
    const where = error instanceof PortInUse ? portInUseLocation(loaded.source, error) : '';
    io.stderr.write(`✖ keel run: ${(error as Error).message}${where}\n`);
    if (error instanceof StartUpInterrupted) return signalExitCode(error.signal);
    return isBadInputFile(error) || error instanceof PortInUse
      ? EXIT.BAD_CONFIG_OR_USAGE
      : EXIT.RUNTIME_FAILURE;
  }
}
