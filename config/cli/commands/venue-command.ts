import type { CliIo } from '../cli-io.ts';
import { CommandNotAvailableError } from '../command-not-available.ts';
import type { ExitCode } from '../exit-codes.ts';

/** Options of `keel venue`. */
export interface VenueOptions {
  readonly host: string;
  /** 0 picks a free port (printed at start). */
  readonly port: number;
  /** A recording to replay; absent = synthetic data (labelled synthetic). */
  readonly recording: string | undefined;
  /** Seed of the synthetic data. */
  readonly seed: number;
  /** Replay speed, 1 = real time. */
  readonly speed: number;
}

/**
 * `keel venue`: the paper venue as a standalone server speaking the venue's REST and
 * WebSocket protocol, until SIGINT.
 * @param _options - address, data source and speed
 * @param _io - output streams
 * @returns the exit code after shutdown
 * @throws CommandNotAvailableError until the paper venue is wired into this build
 */
export async function venueCommand(_options: VenueOptions, _io: CliIo): Promise<ExitCode> {
  throw new CommandNotAvailableError('venue');
}
