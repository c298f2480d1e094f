import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ConfigProblem, LoadedConfig } from '../loader/index.ts';

/** A recording file a config names, and where (its YAML path). */
export interface NamedFile {
  readonly path: string;
  readonly at: readonly (string | number)[];
}

/**
 * The recordings a config replays: a backtest's, or a paper run's recorded source.
 * @param loaded - a validated config
 * @returns each path as written, with its YAML path; empty for live runs and SYNTHETIC paper sources
 */
export function replayedRecordings(loaded: LoadedConfig): NamedFile[] {
  const { config } = loaded;
  if (config.mode === 'paper') {
    const source = config.paper?.source;
    return source?.kind === 'recording' ? [{ path: source.path, at: ['paper', 'source', 'path'] }] : [];
  }
  if (config.mode !== 'backtest') return [];
  return (config.backtest?.recordings ?? []).map((path, index) => ({
    path,
    at: ['backtest', 'recordings', index],
  }));
}

/**
 * The recordings a backtest config names, the recording a paper run replays, and the warm-up
 * history files of any config, that are not there, each as a problem located at its line, so `keel validate`, `keel backtest` and
 * `keel run` refuse them like any other config mistake.
 * @param loaded - a validated config
 * @returns one problem per missing file (relative paths start at the config's directory); empty
 *   when every file exists
 */
export function missingRecordingProblems(loaded: LoadedConfig): ConfigProblem[] {
  const history: NamedFile[] = (loaded.config.warmUp?.history ?? []).map((source, index) =>
    typeof source === 'string'
      ? { path: source, at: ['warmUp', 'history', index] }
      : { path: source.csv, at: ['warmUp', 'history', index, 'csv'] },
  );
  return [...replayedRecordings(loaded), ...history].flatMap(({ path, at }) => {
    const file = resolve(loaded.dir, path);
    return existsSync(file) ? [] : [loaded.source.problem([...at], `names no such file: ${file}`)];
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
