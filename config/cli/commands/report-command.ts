import type { CliIo } from '../cli-io.ts';
import { CommandNotAvailableError } from '../command-not-available.ts';
import type { ExitCode } from '../exit-codes.ts';

/** Options of `keel report`. */
export interface ReportOptions {
  /** The result JSON a run or backtest wrote. */
  readonly result: string;
  /** The HTML file to write; defaults to the result's name with `.html`. */
  readonly out: string | undefined;
}

/**
 * `keel report <result.json>`: rebuilds the HTML report from a saved result.
 * @param _options - input and output
 * @param _io - output streams
 * @returns the exit code
 * @throws CommandNotAvailableError until the report builder is wired into this build
 */
export async function reportCommand(_options: ReportOptions, _io: CliIo): Promise<ExitCode> {
  throw new CommandNotAvailableError('report');
}
