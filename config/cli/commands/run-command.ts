import type { LoadedConfig } from '../../loader/index.ts';
import type { CliIo } from '../cli-io.ts';
import { CommandNotAvailableError } from '../command-not-available.ts';
import type { ExitCode } from '../exit-codes.ts';

/** Options of `keel run`. */
export interface RunOptions {
  /** Stop after this many seconds (overrides paper.durationSec); absent = until SIGINT. */
  readonly durationSec: number | undefined;
}

/**
 * `keel run <config>`: runs the strategies live (against the venue) or on paper (against the
 * embedded paper venue), with pino logs, a status line, and a graceful shutdown on SIGINT /
 * SIGTERM. The config's mode is live or paper (checked by the caller).
 * @param _loaded - the validated config
 * @param _options - run options
 * @param _io - output streams
 * @returns the exit code of the run
 * @throws CommandNotAvailableError until the composition root is wired into this build
 */
export async function runCommand(_loaded: LoadedConfig, _options: RunOptions, _io: CliIo): Promise<ExitCode> {
  throw new CommandNotAvailableError('run');
}
