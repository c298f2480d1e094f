import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ConfigProblem, LoadedConfig } from '../loader/index.ts';

/**
 * The recordings a backtest config names, the recording a paper run replays, and the warm-up
 * history files of any config, that are not there, each as a problem located at its line, so `keel validate`, `keel backtest` and
 * `keel run` refuse them like any other config mistake.
 * @param loaded - a validated config
 * @returns one problem per missing file (relative paths start at the config's directory); empty
 *   when every file exists
 */
export function missingRecordingProblems(loaded: LoadedConfig): ConfigProblem[] {
  const missing = (path: string, at: readonly (string | number)[]): ConfigProblem[] => {
    const file = resolve(loaded.dir, path);
    return existsSync(file) ? [] : [loaded.source.problem([...at], `names no such file: ${file}`)];
  };
  const history = (loaded.config.warmUp?.history ?? []).flatMap((source, index) =>
    typeof source === 'string'
      ? missing(source, ['warmUp', 'history', index])
      : missing(source.csv, ['warmUp', 'history', index, 'csv']),
  );
  if (loaded.config.mode === 'paper') {
    const source = loaded.config.paper?.source;
    return source?.kind === 'recording'
      ? [...missing(source.path, ['paper', 'source', 'path']), ...history]
      : history;
  }
  if (loaded.config.mode !== 'backtest') return history;
  const recordings = (loaded.config.backtest?.recordings ?? []).flatMap((path, index) =>
    missing(path, ['backtest', 'recordings', index]),
  );
  return [...recordings, ...history];
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
