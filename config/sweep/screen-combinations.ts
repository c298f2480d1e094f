import { strategySlots } from '../compose/strategy-plugins.ts';
import { type ConfigProblem, loadConfig } from '../loader/index.ts';

/** A combination a strategy refuses: each value is valid, their combination is not. */
export interface RefusedCombination {
  /** The combination's `--set` arguments. */
  readonly combination: readonly string[];
  /** The strategy's own sentences, e.g. `fast must be shorter than slow`. */
  readonly reasons: readonly string[];
}

/** The combinations of a sweep sorted before any backtest runs. */
export type ScreenedGrid =
  | {
      readonly ok: true;
      /** The combinations to backtest, in grid order. */
      readonly runnable: readonly (readonly string[])[];
      /** The combinations a strategy's check across its params refuses, in grid order. */
      readonly refused: readonly RefusedCombination[];
    }
  | {
      readonly ok: false;
      /** The located problems of the first combination with a real mistake in it. */
      readonly problems: readonly ConfigProblem[];
    };

/**
 * Loads the config with each combination's overrides and checks its strategy params, before any
 * worker starts. A combination that only a strategy's check across its params refuses (a zod
 * `refine`, such as sma-cross's `fast must be shorter than slow`) is set aside, as
 * backtesting.py's `optimize(constraint=...)` skips one; any other problem (a bad value, a
 * missing or unknown key, a module that does not load) is a mistake that stops the sweep; the
 * config of every combination is checked before any strategy params.
 * @param file - the base config, as typed
 * @param sets - the sweep's own `--set` arguments, applied first
 * @param combinations - each combination's `--set` arguments
 * @returns the runnable and the refused combinations, or the problems of the first mistaken one
 */
export async function screenCombinations(
  file: string,
  sets: readonly string[],
  combinations: readonly (readonly string[])[],
): Promise<ScreenedGrid> {
  const runnable: (readonly string[])[] = [];
  const refused: RefusedCombination[] = [];
  // The config of every combination first: a bad config value is named before any params problem.
  const configs = [];
  for (const combination of combinations) {
    const loaded = loadConfig(file, { overrides: [...sets, ...combination] });
    if (!loaded.ok) return { ok: false, problems: loaded.problems };
    configs.push({ combination, loaded });
  }
  for (const { combination, loaded } of configs) {
    const slots = await strategySlots(loaded);
    if (slots.ok) runnable.push(combination);
    else if (slots.constraintsOnly === true)
      refused.push({ combination, reasons: slots.problems.map((problem) => problem.message) });
    else return { ok: false, problems: slots.problems };
  }
  return { ok: true, runnable, refused };
}
