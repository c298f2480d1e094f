import { type EmptyReplayWindowError, emptyReplayWindow } from '../../backtest/runner/index.ts';
import type { ConfigProblem, LoadedConfig } from '../loader/index.ts';
import { replayOptionsOf } from './backtest-run.ts';

/** `2024-03-01` at midnight UTC, else the full time. */
function day(ts: number): string {
  const iso = new Date(ts).toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
}

/**
 * A replay window that misses the recordings, as a config problem located at `--from`/`--to` or
 * its YAML line, naming the recordings' span: what `keel backtest` and `keel sweep` say of it.
 * @param loaded - the config whose window it is
 * @param error - what the run threw, or {@link configuredEmptyReplayWindow} found
 * @returns the problem
 */
export function replayWindowProblem(loaded: LoadedConfig, error: EmptyReplayWindowError): ConfigProblem {
  const { from, to } = error.window;
  const first = error.recordedFrom;
  const last = error.recordedTo;
  const nothing = 'nothing was replayed';
  if (first === undefined || last === undefined)
    return loaded.source.problem(['backtest', 'recordings'], `hold no market events: ${nothing}`);
  if (from !== undefined && from > last)
    return loaded.source.problem(
      ['backtest', 'from'],
      `${day(from)} is after the recordings end (${day(last)}): ${nothing}`,
    );
  if (to !== undefined && to <= first)
    return loaded.source.problem(
      ['backtest', 'to'],
      `${day(to)} is before the recordings start (${day(first)}): ${nothing}`,
    );
  return loaded.source.problem(
    ['backtest', from === undefined ? 'to' : 'from'],
    `leaves a window with no recorded event (the recordings run from ${day(first)} to ${day(last)}): ${nothing}`,
  );
}

/**
 * Whether a config's replay window misses its recordings, found as its backtest would find it
 * (`emptyReplayWindow`), before any backtest runs. Damaged lines met on the way are not told:
 * the backtests tell them.
 * @param loaded - a validated config of mode backtest
 * @param recordings - recordings replacing the config's
 * @returns the error its backtest would throw; undefined when the window holds an event or there is none
 * @throws what opening the recordings throws besides (an unreadable recording, a CSV that is not bars)
 */
export function configuredEmptyReplayWindow(
  loaded: LoadedConfig,
  recordings?: readonly string[],
): Promise<EmptyReplayWindowError | undefined> {
  return emptyReplayWindow({ ...replayOptionsOf(loaded, recordings), onRecordingDamage: () => undefined });
}
