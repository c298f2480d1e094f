import { OutputLocked, shownPath } from '../../../backtest/report/index.ts';
import { OutputCollision } from '../../compose/output-collisions.ts';
import { PortInUse } from '../../compose/port-in-use.ts';
import { recordMarketData } from '../../compose/record-run.ts';
import { signalExitCode } from '../../compose/session-stop.ts';
import type { LoadedConfig } from '../../loader/index.ts';
import { isBadInputFile } from '../bad-input-file.ts';
import type { CliIo } from '../cli-io.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { metricsUrlPrinter } from '../metrics-url-printer.ts';
import { portInUseLocation } from '../port-in-use-location.ts';

/** Options of `keel record`. */
export interface RecordOptions {
  /** Output file; defaults to the config's recording.path, else out/<name or mode>-market.jsonl.gz. */
  readonly out: string | undefined;
  /** Stop after this many seconds; absent = until SIGINT, SIGTERM or SIGHUP. */
  readonly durationSec: number | undefined;
}

/**
 * `keel record <config>`: records the market data of the config's instruments (no trading).
 * @param loaded - the validated config (mode live or paper)
 * @param options - output file and duration
 * @param io - output streams
 * @returns EXIT.OK after the duration or the end of a paper config's market source,
 *   EXIT.INTERRUPTED / EXIT.TERMINATED / EXIT.HANGUP after SIGINT / SIGTERM / SIGHUP, also one
 *   during its start-up (the recording is closed and synced, whole, either way; a second one
 *   while it stops ends the process with the same code once the frames buffered are written), EXIT.BAD_CONFIG_OR_USAGE when another run writes the
 *   recording or it would be written over one of the run's inputs (the config, the recording the
 *   paper venue replays, a strategy module), the recording the paper venue replays is not one
 *   (see `isBadInputFile`), or `metrics.port` / `paper.venuePort` is taken (`PortInUse`, checked
 *   before the earlier recording is moved aside), EXIT.RUNTIME_FAILURE when the venue cannot be reached
 *   or the recording cannot be written (a full disk: the run stops, the frames before it are kept)
 */
export async function recordCommand(
  loaded: LoadedConfig,
  options: RecordOptions,
  io: CliIo,
): Promise<ExitCode> {
  try {
    const outcome = await recordMarketData(loaded, {
      ...(options.out === undefined ? {} : { out: options.out }),
      ...(options.durationSec === undefined ? {} : { durationSec: options.durationSec }),
      onMetrics: metricsUrlPrinter(loaded.config, io),
    });
    for (const warning of outcome.warnings) io.stderr.write(`⚠ ${warning}\n`);
    if (outcome.stoppedBy === 'write-failed') {
      io.stderr.write(
        `✖ keel record: ${outcome.failure ?? 'the recording could not be written'}; ${outcome.frames} market-data frames were written to it before\n`,
      );
      return EXIT.RUNTIME_FAILURE;
    }
    io.stdout.write(`✔ ${outcome.frames} market-data frames recorded to ${shownPath(outcome.path)}\n`);
    return outcome.stoppedBy === 'duration' || outcome.stoppedBy === 'ended'
      ? EXIT.OK
      : signalExitCode(outcome.stoppedBy);
  } catch (error) {
    const where = error instanceof PortInUse ? portInUseLocation(loaded.source, error) : '';
    io.stderr.write(`✖ keel record: ${(error as Error).message}${where}\n`);
    return error instanceof OutputLocked ||
      error instanceof OutputCollision ||
      error instanceof PortInUse ||
      isBadInputFile(error)
      ? EXIT.BAD_CONFIG_OR_USAGE
      : EXIT.RUNTIME_FAILURE;
  }
}
