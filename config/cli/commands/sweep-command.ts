import type { LoadedConfig } from '../../loader/index.ts';
import type { CliIo } from '../cli-io.ts';
import { CommandNotAvailableError } from '../command-not-available.ts';
import type { ExitCode } from '../exit-codes.ts';
import type { GridAxis } from '../grid-spec.ts';

/** Options of `keel sweep`. */
export interface SweepOptions {
  /** The axes; the sweep runs every combination (checked to validate before this is called). */
  readonly grid: readonly GridAxis[];
  /** Worker threads (piscina). */
  readonly workers: number;
  /** The result metric rows are sorted by, best first. */
  readonly metric: string;
  /** Where to write the result table (CSV); absent = stdout only. */
  readonly out: string | undefined;
}

/**
 * `keel sweep <config> --grid ...`: backtests every combination of the grid on worker threads,
 * one result row per combination, sorted by the chosen metric.
 * @param _loaded - the validated base config (mode backtest)
 * @param _options - grid, workers, metric and output
 * @param _io - output streams
 * @returns the exit code
 * @throws CommandNotAvailableError until the sweep runner is wired into this build
 */
export async function sweepCommand(
  _loaded: LoadedConfig,
  _options: SweepOptions,
  _io: CliIo,
): Promise<ExitCode> {
  throw new CommandNotAvailableError('sweep');
}
