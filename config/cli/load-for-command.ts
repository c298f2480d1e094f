import { formatConfigProblem, type LoadedConfig, loadConfig, type OverrideArg } from '../loader/index.ts';
import type { CliIo } from './cli-io.ts';

/**
 * Loads a config for a command, printing each problem as one line on stderr.
 * @param file - the config path as typed
 * @param overrides - `--set` arguments
 * @param io - where to print problems
 * @returns the loaded config, or undefined after printing why not (exit with EXIT.BAD_CONFIG_OR_USAGE)
 */
export function loadForCommand(
  file: string,
  overrides: readonly OverrideArg[],
  io: CliIo,
): LoadedConfig | undefined {
  const result = loadConfig(file, { overrides });
  if (!result.ok) {
    for (const problem of result.problems) io.stderr.write(`${formatConfigProblem(problem)}\n`);
    return undefined;
  }
  const { ok: _ok, ...loaded } = result;
  return loaded;
}
