import type { LoadedConfig } from '../../loader/index.ts';
import type { CliIo } from '../cli-io.ts';
import { CommandNotAvailableError } from '../command-not-available.ts';
import type { ExitCode } from '../exit-codes.ts';

/** Options of `keel backtest` beyond the config (`--from/--to` are applied to it as overrides). */
export interface BacktestOptions {
  /** Show a progress bar on stderr. */
  readonly progress: boolean;
}

/**
 * `keel backtest <config>`: replays the config's recordings through the simulated venue and
 * writes the report. The config's mode is backtest (checked by the caller).
 * @param _loaded - the validated config, `--from/--to/--set` applied
 * @param _options - backtest options
 * @param _io - output streams
 * @returns the exit code of the backtest
 * @throws CommandNotAvailableError until the backtest runner is wired into this build
 */
export async function backtestCommand(
  _loaded: LoadedConfig,
  _options: BacktestOptions,
  _io: CliIo,
): Promise<ExitCode> {
  throw new CommandNotAvailableError('backtest');
}
