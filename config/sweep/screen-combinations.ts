import { strategySlots } from '../compose/strategy-plugins.ts';
import { type ConfigProblem, loadConfig, type OverrideArg } from '../loader/index.ts';
import { WINDOW_ENDS_BEFORE_START } from '../schema/index.ts';
import { paramPatchedConfig } from './param-patched-config.ts';
import { axesOf, screenAxisValues, windowEndsBeforeStart } from './screen-axis-values.ts';

/**
 * A combination not run: each value is valid, their combination is not (a strategy's own check
 * across its params refuses it, its replay window ends before it starts, or misses the recordings).
 */
export interface RefusedCombination {
  /** The combination's `--set` arguments. */
  readonly combination: readonly string[];
  /**
   * Who refuses it: the strategy's check across its `params`, its replay `window` (ending before
   * it starts), or the recorded `data` (the window holds none of it: `screenReplayWindows`).
   */
  readonly by: 'params' | 'window' | 'data';
  /** The sentences, e.g. the strategy's `fast must be shorter than slow`, or `backtest.to must be later than from`. */
  readonly reasons: readonly string[];
}

/** The combinations of a sweep sorted before any backtest runs. */
export type ScreenedGrid =
  | {
      readonly ok: true;
      /** The combinations to backtest, in grid order. */
      readonly runnable: readonly (readonly string[])[];
      /** The combinations a strategy's check across its params refuses, or whose window ends before it starts, in grid order. */
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
 * backtesting.py's `optimize(constraint=...)` skips one, and so is one whose `backtest.to` is not
 * later than its `backtest.from` (a grid over both); any other problem (a bad value, a
 * missing or unknown key, a module that does not load) is a mistake that stops the sweep; the
 * config problem of any combination is named before any strategy params problem. Each axis value
 * is first checked on its own ({@link screenAxisValues}), so a value that is wrong whatever it is
 * combined with stops the sweep in a load per value, named at its own `--grid` entry. A
 * combination of numbers and booleans of strategy params is then checked against the strategy
 * alone ({@link paramPatchedConfig}), without loading the config again for it.
 * @param file - the base config, as typed
 * @param sets - the sweep's own overrides (`--set`, `--from`, `--to`), applied first
 * @param combinations - each combination's `--set` arguments
 * @param load - loads a config (the loader's `loadConfig`; a test counts the loads)
 * @returns the runnable and the refused combinations, or the problems of the first mistaken one
 */
export async function screenCombinations(
  file: string,
  sets: readonly OverrideArg[],
  combinations: readonly (readonly string[])[],
  load: typeof loadConfig = loadConfig,
): Promise<ScreenedGrid> {
  const wrongValue = await screenAxisValues(file, sets, axesOf(combinations), load);
  if (wrongValue !== undefined) return { ok: false, problems: wrongValue };
  const runnable: (readonly string[])[] = [];
  const refused: RefusedCombination[] = [];
  // A bad config value of any combination is named before any params problem, so the first params
  // problem waits for the last config; each config is let go once checked (10 000 held took about 200 MB).
  let paramsProblems: readonly ConfigProblem[] | undefined;
  const base = load(file, { overrides: sets });
  for (const combination of combinations) {
    const patched = base.ok ? paramPatchedConfig(base, combination) : undefined;
    if (patched !== undefined) {
      // Params alone: no config problem can come of it, so after a params problem there is nothing to look for.
      if (paramsProblems !== undefined) continue;
      const slots = await strategySlots(patched);
      if (slots.ok) {
        runnable.push(combination);
        continue;
      }
      if (slots.constraintsOnly === true) {
        refused.push({
          combination,
          by: 'params',
          reasons: slots.problems.map((problem) => problem.message),
        });
        continue;
      }
      // A mistake: loaded in full below, so its problems say where the value was set.
    }
    const loaded = load(file, { overrides: [...sets, ...combination] });
    if (!loaded.ok) {
      if (!loaded.problems.every(windowEndsBeforeStart)) return { ok: false, problems: loaded.problems };
      refused.push({ combination, by: 'window', reasons: [`backtest.to ${WINDOW_ENDS_BEFORE_START}`] });
      continue;
    }
    if (paramsProblems !== undefined) continue;
    const slots = await strategySlots(loaded);
    if (slots.ok) runnable.push(combination);
    else if (slots.constraintsOnly === true)
      refused.push({ combination, by: 'params', reasons: slots.problems.map((problem) => problem.message) });
    else paramsProblems = slots.problems;
  }
  return paramsProblems === undefined
    ? { ok: true, runnable, refused }
    : { ok: false, problems: paramsProblems };
}
