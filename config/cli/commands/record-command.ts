import type { LoadedConfig } from '../../loader/index.ts';
import type { CliIo } from '../cli-io.ts';
import { CommandNotAvailableError } from '../command-not-available.ts';
import type { ExitCode } from '../exit-codes.ts';

/** Options of `keel record`. */
export interface RecordOptions {
  /** Output file; defaults to the config's recording.path. */
  readonly out: string | undefined;
  /** Stop after this many seconds; absent = until SIGINT. */
  readonly durationSec: number | undefined;
}

/**
 * `keel record <config>`: records the market data of the config's instruments (no trading).
 * @param _loaded - the validated config (mode live or paper)
 * @param _options - output file and duration
 * @param _io - output streams
 * @returns the exit code of the recording session
 * @throws CommandNotAvailableError until the recorder is wired into this build
 */
export async function recordCommand(
  _loaded: LoadedConfig,
  _options: RecordOptions,
  _io: CliIo,
): Promise<ExitCode> {
  throw new CommandNotAvailableError('record');
}
