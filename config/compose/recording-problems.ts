import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ConfigProblem, LoadedConfig } from '../loader/index.ts';

/**
 * The recordings a backtest config names that are not there, each as a problem located at its
 * line, so `keel validate` and `keel backtest` refuse them like any other config mistake.
 * @param loaded - a validated config
 * @returns one problem per missing file (relative paths start at the config's directory); empty
 *   when every recording exists or the config is not a backtest
 */
export function missingRecordingProblems(loaded: LoadedConfig): ConfigProblem[] {
  if (loaded.config.mode !== 'backtest') return [];
  return (loaded.config.backtest?.recordings ?? []).flatMap((path, index) => {
    const file = resolve(loaded.dir, path);
    return existsSync(file)
      ? []
      : [loaded.source.problem(['backtest', 'recordings', index], `names no such file: ${file}`)];
  });
}

/**
 * The `--recording` paths that are not there, one sentence each.
 * @param recordings - the paths as typed
 * @returns e.g. `✖ --recording out/x.jsonl.gz: no such file`
 */
export function missingRecordingOptions(recordings: readonly string[]): string[] {
  return recordings
    .filter((path) => !existsSync(resolve(path)))
    .map((path) => `✖ --recording ${path}: no such file`);
}
