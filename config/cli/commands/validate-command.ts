import { stringify } from 'yaml';
import { unlistedSymWarnings } from '../../../backtest/runner/index.ts';
import { configRecordingProblems } from '../../compose/config-recording-problems.ts';
import { ignoredLeverageWarnings } from '../../compose/instrument-specs.ts';
import { recordingSymWarnings, warmUpHistorySymWarnings } from '../../compose/recording-sym-warnings.ts';
import { registryFor } from '../../compose/strategy-plugins.ts';
import {
  cleartextVenueUrlWarnings,
  formatConfigProblem,
  livePortfolioWarnings,
  type OverrideArg,
  type StrategyParamsRegistry,
  unusedSectionWarnings,
  validateStrategyParams,
} from '../../loader/index.ts';
import { redactConfig } from '../../schema/index.ts';
import type { CliIo } from '../cli-io.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { loadForCommand } from '../load-for-command.ts';

/** Options of `keel validate`. */
export interface ValidateOptions {
  /** `--unset path` and `--set path=value` arguments. */
  readonly overrides: readonly OverrideArg[];
  /** Print the resolved config (defaults applied, strategy params' too; secrets redacted) as YAML. */
  readonly print: boolean;
}

/**
 * `keel validate <config>`: checks a config without running it: that the recordings it names
 * exist (a backtest's, a paper run's source, warm-up history), and strategy params when a strategy registry is given (plugin modules the config names
 * are imported and added to it). A valid config may still get warnings (⚠, exit 0): a sym in a
 * strategy's params that is not one of the instruments, an instrument no replayed recording's
 * header lists, a recording whose header cannot be read, warm-up history of none of the
 * instruments, a section the config's mode ignores.
 * @param file - the config path as typed
 * @param options - overrides and --print
 * @param io - output streams
 * @param registry - strategy definitions for the params check; undefined skips it, saying so
 * @returns EXIT.OK when valid, EXIT.BAD_CONFIG_OR_USAGE otherwise
 */
export async function validateCommand(
  file: string,
  options: ValidateOptions,
  io: CliIo,
  registry: StrategyParamsRegistry | undefined,
): Promise<ExitCode> {
  const loaded = loadForCommand(file, options.overrides, io);
  if (loaded === undefined) return EXIT.BAD_CONFIG_OR_USAGE;
  let resolvedParams: ReadonlyMap<string, unknown> = new Map();
  if (registry !== undefined) {
    const plugins = await registryFor(loaded);
    if (!plugins.ok) {
      for (const problem of plugins.problems) io.stderr.write(`${formatConfigProblem(problem)}\n`);
      return EXIT.BAD_CONFIG_OR_USAGE;
    }
    const known = {
      get: (use: string) => registry.get(use) ?? plugins.registry.get(use),
      keys: () => registry.keys(),
    };
    const params = validateStrategyParams(loaded, known);
    if (!params.ok) {
      for (const problem of params.problems) io.stderr.write(`${formatConfigProblem(problem)}\n`);
      return EXIT.BAD_CONFIG_OR_USAGE;
    }
    resolvedParams = params.params;
  }
  const missing = await configRecordingProblems(loaded);
  if (missing.length > 0) {
    for (const problem of missing) io.stderr.write(`${formatConfigProblem(problem)}\n`);
    return EXIT.BAD_CONFIG_OR_USAGE;
  }
  const { mode, strategies } = loaded.config;
  const count = `${strategies.length} ${strategies.length === 1 ? 'strategy' : 'strategies'}`;
  io.stdout.write(`✔ ${file} is valid (mode ${mode}, ${count})\n`);
  // What a run would warn of without any data: a sym in a strategy's params that no run can trade.
  const entries = strategies.map((s) => ({ id: s.id, params: resolvedParams.get(s.id) ?? s.params }));
  const syms = loaded.config.instruments.map((instrument) => instrument.sym);
  for (const warning of unlistedSymWarnings(entries, syms)) io.stdout.write(`  ⚠ ${warning}\n`);
  for (const warning of await recordingSymWarnings(loaded)) io.stdout.write(`  ⚠ ${warning}\n`);
  for (const warning of await warmUpHistorySymWarnings(loaded)) io.stdout.write(`  ⚠ ${warning}\n`);
  for (const warning of unusedSectionWarnings(loaded)) io.stdout.write(`  ⚠ ${warning}\n`);
  for (const warning of livePortfolioWarnings(loaded)) io.stdout.write(`  ⚠ ${warning}\n`);
  for (const warning of cleartextVenueUrlWarnings(loaded)) io.stdout.write(`  ⚠ ${warning}\n`);
  for (const warning of ignoredLeverageWarnings(loaded.config, loaded.source))
    io.stdout.write(`  ⚠ ${warning}\n`);
  if (registry === undefined) {
    io.stderr.write('  strategy params not checked: this build has no strategy registry yet\n');
  }
  if (options.print) {
    // Each strategy's params as it will run them: the plugin's defaults filled in.
    const strategies = loaded.config.strategies.map((strategy) => ({
      ...strategy,
      params: resolvedParams.get(strategy.id) ?? strategy.params,
    }));
    io.stdout.write(stringify(redactConfig({ ...loaded.config, strategies })));
  }
  return EXIT.OK;
}
