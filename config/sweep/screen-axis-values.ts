import { strategySlots } from '../compose/strategy-plugins.ts';
import {
  type ConfigProblem,
  formatSetPath,
  type LoadedConfig,
  loadConfig,
  type OverrideArg,
} from '../loader/index.ts';
import { WINDOW_ENDS_BEFORE_START } from '../schema/index.ts';

/** A grid axis as the screen reads it: its path as typed (`strategies.0.params.fast`) and its values. */
export interface ScreenedAxis {
  readonly path: string;
  readonly values: readonly string[];
}

/**
 * Whether a problem is only that the replay window ends before it starts (`backtest.to` not after
 * `backtest.from`): a rule across two fields, so no mistake of either value alone.
 * @param problem - a config problem
 * @returns true for the window's rule
 */
export function windowEndsBeforeStart(problem: ConfigProblem): boolean {
  return formatSetPath(problem.path) === 'backtest.to' && problem.message === WINDOW_ENDS_BEFORE_START;
}

/**
 * The axes of a grid's combinations: each path set and the values it takes, each once, in grid order.
 * @param combinations - each combination's `--set` arguments (`path=value`)
 * @returns the axes
 */
export function axesOf(combinations: readonly (readonly string[])[]): ScreenedAxis[] {
  const axes = new Map<string, Set<string>>();
  for (const combination of combinations)
    for (const set of combination) {
      const eq = set.indexOf('=');
      const path = set.slice(0, eq);
      const values = axes.get(path) ?? new Set<string>();
      axes.set(path, values);
      values.add(set.slice(eq + 1));
    }
  return [...axes].map(([path, values]) => ({ path, values: [...values] }));
}

/**
 * Checks each value of each grid axis once, on its own: the config with the sweep's overrides and
 * that one value set, the other axes left as the config has them. A value whose own field is
 * refused (a type, a bound, an unknown choice: `slow` of 1 where it must be at least 2) is a
 * mistake, whatever it is combined with, and is named at its own `--grid` entry; this takes a
 * load per value rather than one per combination. Problems of other fields, and rules across
 * fields (a strategy's `refine`, the replay window's order), say nothing of this value alone and
 * are left to the combinations' check. As there, a config problem of any value is named before a
 * strategy params problem.
 * @param file - the base config, as typed
 * @param sets - the sweep's own overrides (`--set`, `--from`, `--to`), applied first
 * @param axes - the grid's axes
 * @param load - loads a config (the loader's `loadConfig`; a test counts the loads)
 * @returns the problems of its own field for the first value that is a mistake; undefined when none is
 */
export async function screenAxisValues(
  file: string,
  sets: readonly OverrideArg[],
  axes: readonly ScreenedAxis[],
  load: typeof loadConfig = loadConfig,
): Promise<readonly ConfigProblem[] | undefined> {
  const loadedValues: { readonly path: string; readonly loaded: LoadedConfig }[] = [];
  for (const { path, values } of axes)
    for (const value of values) {
      const loaded = load(file, { overrides: [...sets, `${path}=${value}`] });
      if (loaded.ok) loadedValues.push({ path, loaded });
      else {
        const mistakes = ownProblems(loaded.problems, path);
        if (mistakes.length > 0) return mistakes;
      }
    }
  for (const { path, loaded } of loadedValues) {
    const slots = await strategySlots(loaded);
    if (slots.ok || slots.constraintsOnly === true) continue;
    const mistakes = ownProblems(slots.problems, path);
    if (mistakes.length > 0) return mistakes;
  }
  return undefined;
}

/**
 * The problems of one field that are its own: not a schema's own rule (standalone, a `refine`,
 * which may be one across fields that the others break) nor the replay window's order.
 */
function ownProblems(problems: readonly ConfigProblem[], path: string): ConfigProblem[] {
  return problems.filter(
    (problem) =>
      problem.standalone !== true && !windowEndsBeforeStart(problem) && formatSetPath(problem.path) === path,
  );
}
