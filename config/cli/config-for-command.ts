import { ignoredLeverageWarnings } from '../compose/instrument-specs.ts';
import {
  cleartextVenueUrlWarnings,
  type LoadedConfig,
  livePortfolioWarnings,
  type OverrideArg,
  unsetOverride,
  unusedSectionWarnings,
} from '../loader/index.ts';
import type { RunMode } from '../schema/index.ts';
import type { CliIo } from './cli-io.ts';
import { loadForCommand } from './load-for-command.ts';

/** Help of the repeatable `--set` option of the commands that read a config. */
export const SET_HELP =
  'override a config value before validation, e.g. strategies.0.params.fast=12 (repeatable)';

/** Help of the repeatable `--unset` option of the commands that read a config. */
export const UNSET_HELP =
  'remove a config key before validation, so its default (or its absence) applies, e.g. backtest.to (repeatable; applied before the --sets)';

/**
 * The overrides a command's `--unset`s, options standing for a `--set` (`--from`, `--to`) and
 * `--set`s stand for, unsets first (so that `--unset a --set a.b=1` replaces the map `a` with one
 * key, and `--unset backtest.to --to X` keeps the `--to`).
 * @param unsets - the `--unset` paths as typed
 * @param sets - the `--set` arguments as typed
 * @param options - the overrides of options standing for a `--set`, applied before the `--set`s
 * @returns the overrides, in the order the loader applies them
 */
export function commandOverrides(
  unsets: readonly string[],
  sets: readonly string[],
  options: readonly OverrideArg[] = [],
): OverrideArg[] {
  return [...unsets.map(unsetOverride), ...options, ...sets];
}

/** Help of `--from`, the start of a backtest's replay window. */
export const FROM_HELP = 'start of the replay window (ISO date-time with zone, or epoch ms)';
/** Help of `--to`, the end of a backtest's replay window. */
export const TO_HELP = 'end of the replay window (ISO date-time with zone, or epoch ms)';
/** Help of `--recording` of `keel backtest` and `keel sweep`: recordings replacing the config's. */
export const RECORDING_HELP =
  "replay this recording instead of the config's (repeatable), e.g. the session npm start wrote";

/**
 * The overrides `--from` and `--to` stand for: `backtest.from` and `backtest.to`, located as the
 * option the user typed when a value is wrong.
 * @param from - `--from` as typed, if given
 * @param to - `--to` as typed, if given
 * @returns the overrides, to apply before the `--set`s
 */
export function replayWindowOverrides(from: string | undefined, to: string | undefined): OverrideArg[] {
  return [
    ...(from === undefined ? [] : [{ set: `backtest.from=${from}`, shownAs: `--from ${from}` }]),
    ...(to === undefined ? [] : [{ set: `backtest.to=${to}`, shownAs: `--to ${to}` }]),
  ];
}

/**
 * Loads a config for a command and checks that the command runs in its mode; prints why not.
 * Warns (⚠ on stderr) of sections (and, live, portfolio settings) the mode ignores, of instrument overrides that do nothing and
 * of live venue URLs in clear text to another machine, before the command starts.
 * @param io - where to print problems
 * @param command - the command's name, e.g. `backtest`
 * @param file - the config path as typed
 * @param sets - `--set` arguments (and the options that stand for some)
 * @param modes - the modes the command runs in
 * @returns the loaded config, or undefined after printing why not (exit with EXIT.BAD_CONFIG_OR_USAGE)
 */
export function configForCommand(
  io: CliIo,
  command: string,
  file: string,
  sets: readonly OverrideArg[],
  modes: readonly RunMode[],
): LoadedConfig | undefined {
  const loaded = loadForCommand(file, sets, io);
  if (loaded !== undefined && !modes.includes(loaded.config.mode)) {
    io.stderr.write(
      `✖ keel ${command} needs a config with mode ${modes.join(' or ')}; ${file} has mode ${loaded.config.mode}\n`,
    );
    return undefined;
  }
  if (loaded !== undefined)
    for (const warning of [
      ...unusedSectionWarnings(loaded),
      ...livePortfolioWarnings(loaded),
      ...ignoredLeverageWarnings(loaded.config, loaded.source),
      ...cleartextVenueUrlWarnings(loaded),
    ])
      io.stderr.write(`⚠ ${warning}\n`);
  return loaded;
}
