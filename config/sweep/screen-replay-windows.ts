import type { EmptyReplayWindowError } from '../../backtest/runner/index.ts';
import { replayOptionsOf } from '../compose/backtest-run.ts';
import { configuredEmptyReplayWindow } from '../compose/replay-window-check.ts';
import { type LoadedConfig, loadConfig, type OverrideArg, type YamlPath } from '../loader/index.ts';
import type { RefusedCombination } from './screen-combinations.ts';

/** The parts of a config its replay window comes from: the backtest section (from, to, recordings) and the warm-up. */
const REPLAY_ROOTS: ReadonlySet<string | number> = new Set(['backtest', 'warmUp']);

/** Inputs of {@link screenReplayWindows}. */
export interface ReplayWindowScreen {
  /** The sweep's base config, its own overrides (`--set`, `--from`, `--to`) applied. */
  readonly base: LoadedConfig;
  /** The sweep's own overrides, applied before each combination's. */
  readonly sets: readonly OverrideArg[];
  /** The paths of the grid's axes. */
  readonly axes: readonly YamlPath[];
  /** The combinations to check, each as its `--set` arguments. */
  readonly combinations: readonly (readonly string[])[];
  /** Recordings replacing the config's in every combination; absent = each config's. */
  readonly recordings?: readonly string[];
}

/** The combinations of a sweep whose replay window holds recorded events, and those whose window misses them. */
export type ScreenedWindows =
  | {
      readonly ok: true;
      /** The combinations whose window holds an event (or that have none), in grid order. */
      readonly runnable: readonly (readonly string[])[];
      /** Those whose window (a grid over `backtest.from`, `backtest.to`...) misses the recordings, in grid order. */
      readonly refused: readonly RefusedCombination[];
    }
  | {
      readonly ok: false;
      /** The window every combination shares (no axis sets it) misses the recordings, as the runs would find. */
      readonly missed: EmptyReplayWindowError;
    };

/**
 * Finds, before any backtest runs, the combinations whose replay window (`--from`/`--to`,
 * `backtest.from`/`to`, widened by the warm-up) holds no event of the recordings, as each
 * backtest would find as it starts (`configuredEmptyReplayWindow`, what `keel backtest` refuses),
 * asking each distinct window once. When no grid axis touches the backtest section or the
 * warm-up, every combination replays as the base config does: one question answers for all.
 * @param screen - the base config, the sweep's overrides, the axes, the combinations and recordings
 * @returns the runnable and refused combinations, or the base window that misses the recordings
 * @throws what opening the recordings throws besides an empty window (an unreadable recording)
 */
export async function screenReplayWindows(screen: ReplayWindowScreen): Promise<ScreenedWindows> {
  const { base, combinations, recordings } = screen;
  if (!screen.axes.some((path) => REPLAY_ROOTS.has(path[0] ?? ''))) {
    const missed = await configuredEmptyReplayWindow(base, recordings);
    return missed === undefined ? { ok: true, runnable: combinations, refused: [] } : { ok: false, missed };
  }
  const asked = new Map<string, Promise<EmptyReplayWindowError | undefined>>();
  const runnable: (readonly string[])[] = [];
  const refused: RefusedCombination[] = [];
  for (const combination of combinations) {
    const loaded = loadConfig(base.file, { overrides: [...screen.sets, ...combination] });
    // A combination that does not load was refused by the screening before this one.
    const missed = loaded.ok ? await windowMissed(loaded, recordings, asked) : undefined;
    if (missed === undefined) runnable.push(combination);
    else refused.push({ combination, by: 'data', reasons: [missed.message] });
  }
  return { ok: true, runnable, refused };
}

/** {@link configuredEmptyReplayWindow} of a combination, asked once per distinct replay. */
function windowMissed(
  loaded: LoadedConfig,
  recordings: readonly string[] | undefined,
  asked: Map<string, Promise<EmptyReplayWindowError | undefined>>,
): Promise<EmptyReplayWindowError | undefined> {
  const { recordings: sources, eventCache, window, warmUp } = replayOptionsOf(loaded, recordings);
  const key = JSON.stringify([sources, eventCache, window, warmUp]);
  let missed = asked.get(key);
  if (missed === undefined) {
    missed = configuredEmptyReplayWindow(loaded, recordings);
    asked.set(key, missed);
  }
  return missed;
}
